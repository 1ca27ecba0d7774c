package literal

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"sync"
)

// String is one literal to find.
type String struct {
	Text string
	// Fold makes ASCII letters match in either case; other bytes match
	// exactly.
	Fold bool
	// At, when not zero, is the offset in Text, plus one, of the byte the
	// first runs search for the string by, as FirstAnchors chooses it.
	// Zero lets the Set take the string's rarest byte.
	At int
}

// Set is a compiled list of Strings, searched by its Scanners. It is
// immutable and may be shared.
type Set struct {
	lits []lit
	live int // the strings that are not empty
	// firstAnchors are the anchors of the first runs, for every string,
	// placed by the first Scanner that needs them.
	firstOnce    sync.Once
	firstAnchors placed
	// The anchor keys, built when a Scanner first chooses its anchors
	// from the text (keyIndex): the first runs need none.
	keysOnce sync.Once
	keys     [][]int16        // by string: the keys it holds, in increasing order
	byKey    [numKeys][]int32 // by key: the strings that hold it
	// win is built when a Scanner first weighs the SIMD search, after
	// warmup bytes of text: a command that prints little never pays for it.
	winOnce sync.Once
	win     winIndex
}

// keySet is a set of anchor keys.
type keySet [(numKeys + 63) / 64]uint64

// appendTo appends the keys of s to ks, in increasing order.
func (s *keySet) appendTo(ks []int16) []int16 {
	for j, w := range s {
		for ; w != 0; w &= w - 1 {
			ks = append(ks, int16(j<<6|bits.TrailingZeros64(w)))
		}
	}
	return ks
}

// lit is a String as the search uses it.
type lit struct {
	text []byte // lower case when fold
	// A first check of the first 8 bytes, when the string has them: the
	// bytes read as a little-endian word, or-ed with mask (0x20 on the
	// letters of a folded string), equal head.
	head, mask uint64
	first      int32 // the offset of the byte the first runs anchor on
	fold       bool
	head8      bool
}

// NewSet compiles ss; a String's index in ss is its id. An empty String is
// never found.
func NewSet(ss []String) *Set {
	s := &Set{lits: make([]lit, len(ss))}
	size := 0
	for _, str := range ss {
		size += len(str.Text)
	}
	text := make([]byte, 0, size)
	est := prior()
	for i, str := range ss {
		start := len(text)
		text = append(text, str.Text...)
		l := lit{text: text[start:len(text):len(text)], fold: str.Fold}
		if l.fold {
			for j, c := range l.text {
				l.text[j] = lower[c]
			}
		}
		if len(l.text) >= 8 {
			l.head8 = true
			l.head = binary.LittleEndian.Uint64(l.text)
			for j, c := range l.text[:8] {
				if l.fold && 'a' <= c && c <= 'z' {
					l.mask |= 0x20 << (8 * j)
				}
			}
		}
		if str.At > 0 && str.At <= len(l.text) {
			l.first = int32(str.At - 1)
		} else {
			l.first = rarest(est, &l)
		}
		s.lits[i] = l
		if len(l.text) > 0 {
			s.live++
		}
	}
	return s
}

// rarest returns the offset of l's rarest byte in est, the first of them.
func rarest(est *[256]float64, l *lit) int32 {
	best, bestFreq := 0, 2.0
	for i, c := range l.text {
		f := est[c]
		if l.fold && isLower(c) {
			f += est[c-'a'+'A']
		}
		if f < bestFreq {
			best, bestFreq = i, f
		}
	}
	return int32(best)
}

// keyIndex builds the strings' anchor keys, on the first call.
func (s *Set) keyIndex() {
	s.keysOnce.Do(func() {
		s.keys = make([][]int16, len(s.lits))
		n := 0
		for i := range s.lits {
			n += len(s.lits[i].text)
		}
		keys := make([]int16, 0, n)
		var count [numKeys]int32
		for i := range s.lits {
			l := &s.lits[i]
			var ks keySet
			if l.fold {
				for _, c := range l.text {
					k := foldKey[c]
					ks[k>>6] |= 1 << (k & 63)
				}
			} else {
				for _, c := range l.text {
					ks[c>>6] |= 1 << (c & 63)
				}
			}
			start := len(keys)
			keys = ks.appendTo(keys)
			s.keys[i] = keys[start:len(keys):len(keys)]
			for _, k := range s.keys[i] {
				count[k]++
			}
		}
		ids := make([]int32, len(keys))
		for k, n := range count {
			s.byKey[k], ids = ids[:0:n], ids[n:]
		}
		for i, ks := range s.keys {
			for _, k := range ks {
				s.byKey[k] = append(s.byKey[k], int32(i))
			}
		}
	})
}

// FirstAnchors returns the At of each of ss: the byte its first runs search
// for it by, chosen as a Scanner of them all chooses its anchors, on the
// bytes' frequencies in typical output alone. A Set of any of ss then
// starts on few and rare bytes without choosing; the choice costs what
// a Scanner's does, and the presets make it when the program is built.
func FirstAnchors(ss []String) []int {
	sc := NewSet(ss).NewScanner()
	sc.tn.est.bytes = *prior()
	sc.cover()
	at := make([]int, len(ss))
	for _, p := range sc.pickAll() {
		at[p.id] = int(p.off) + 1
	}
	return at
}

// windows returns the windows of s's strings, built on the first call.
func (s *Set) windows() *winIndex {
	s.winOnce.Do(func() { s.win.index(s.lits) })
	return &s.win
}

// Len returns the number of Strings in the set.
func (s *Set) Len() int { return len(s.lits) }

// at reports whether l occurs in b at start.
func (l *lit) at(b []byte, start int) bool {
	end := start + len(l.text)
	if start < 0 || end > len(b) {
		return false
	}
	if !l.fold {
		return bytes.Equal(b[start:end], l.text)
	}
	for i, c := range b[start:end] {
		if lower[c] != l.text[i] {
			return false
		}
	}
	return true
}

// lower maps ASCII upper-case letters to lower case and every other byte to
// itself.
var lower = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] += 'a' - 'A'
		}
	}
	return t
}()
