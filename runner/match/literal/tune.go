package literal

import (
	"encoding/binary"
	"math"
	"strings"
	"sync"
)

// An anchor key is what a string is anchored on: a byte value, or for a
// folded string one of the 26 letters, which stands for both its bytes.
const numKeys = 256 + 26

func keyOf(c byte, fold bool) int {
	if fold {
		return int(foldKey[c])
	}
	return int(c)
}

// foldKey is the key of each byte of a folded string.
var foldKey = func() (t [256]uint16) {
	for c := range t {
		t[c] = uint16(c)
		if l := lower[c]; 'a' <= l && l <= 'z' {
			t[c] = 256 + uint16(l-'a')
		}
	}
	return t
}()

// tuner chooses the anchors. Its tables live in the Scanner so that
// choosing again allocates nothing.
type tuner struct {
	hist    [256]int32   // bytes counted since the last estimate
	n       int          // how many
	est     [256]float64 // how often each byte occurs, per byte of text
	used    [256]bool    // the byte is an anchor
	planned [256]bool    // the byte is an anchor of a chosen key
	count   [numKeys]int32
	chosen  [numKeys]bool
	covered []bool // by string
	// chosenEst is est when the anchors were last chosen.
	chosenEst [256]float64
	picks     []pick   // the strings anchored, while choosing
	sortKeys  []uint64 // the entries of an anchor, while sorting them
	grams     *grams   // for the SIMD search, from the first choice from the text on; nil before and without
}

// grams counts the windows of text seen, hashed: exact, and with ASCII
// letters in lower case.
type grams struct {
	count [2][gramSize]uint16 // since the last estimate
	n     int
	est   [2][gramSize]uint16 // at the last estimate
	estN  int
	// The first bytes of the sample, and at the last estimate: the
	// buckets are tried on them (sim.go).
	text, estText   [simSample]byte
	textN, estTextN int
	// leakText is part of a run that the buckets let too many candidates
	// through on, which they are weighed on too (checkNarrow).
	leakText [simSample / 2]byte
	leakN    int
}

const gramSize = 1 << 12

// gramSample is how many bytes of each sample the windows are counted in:
// counting them costs ten times what counting the bytes does.
const gramSample = 2 << 10

func gramHash(k uint32) uint32 { return (k * 0x9e3779b1) >> 20 }

// add counts the windows of b.
func (tr *grams) add(b []byte) {
	for i := 0; i+winSize <= len(b); i++ {
		k := binary.LittleEndian.Uint32(b[i:])
		tr.count[0][gramHash(k)]++
		k = uint32(lower[b[i]]) | uint32(lower[b[i+1]])<<8 | uint32(lower[b[i+2]])<<16 | uint32(lower[b[i+3]])<<24
		tr.count[1][gramHash(k)]++
	}
	tr.n += max(len(b)-winSize+1, 0)
}

// pass is what one more anchor byte costs, in occurrences per byte of text:
// an IndexByte pass over a run costs about as much as checking an
// occurrence every few hundred bytes.
const pass = 1.0 / 300

// indexPass is what an IndexByte pass costs, in occurrences per byte of text,
// when anchors are weighed against the SIMD search: less than the cover
// counts (pass), which leans to fewer passes.
const indexPass = 1.0 / 1200

// priorWeight is how many bytes of text the guess of byteFrequency counts
// for beside the sample.
const priorWeight = 256

// maxDrift is how far the bytes' frequencies may move, summed over the
// bytes, before the anchors are chosen again: the samples of text much like
// the last differ by less.
const maxDrift = 0.3

// moved reports whether the bytes' frequencies moved by maxDrift or more
// since the anchors were chosen.
func (t *tuner) moved() bool {
	d := 0.0
	for c := range t.est {
		d += math.Abs(t.est[c] - t.chosenEst[c])
	}
	return d >= maxDrift
}

// add counts the bytes of b, up to sample bytes since the last estimate.
func (t *tuner) add(b []byte) {
	for _, c := range b[:min(len(b), sample-t.n)] {
		t.hist[c]++
	}
	if t.grams != nil && t.n < gramSample {
		t.grams.add(b[:min(len(b), gramSample-t.n)])
	}
	if tr := t.grams; tr != nil {
		tr.textN += copy(tr.text[tr.textN:], b)
	}
	t.n += min(len(b), sample-t.n)
}

// estimate sets est from the bytes counted, blended with the prior, and
// starts counting anew.
func (t *tuner) estimate() {
	n, prior := float64(t.n), prior()
	for c := range t.est {
		t.est[c] = (float64(t.hist[c]) + prior[c]*priorWeight) / (n + priorWeight)
	}
	t.hist, t.n = [256]int32{}, 0
	if tr := t.grams; tr != nil {
		tr.est, tr.estN = tr.count, tr.n
		tr.count, tr.n = [2][gramSize]uint16{}, 0
		tr.estText, tr.estTextN, tr.textN = tr.text, tr.textN, 0
	}
}

// choose sets sc's anchors for the strings still searched for, and the
// SIMD search's windows: each string on the rarest chosen key it holds,
// unless the SIMD search takes it.
func (t *tuner) choose(sc *Scanner) {
	sc.clearAnchors()
	t.chosenEst = t.est
	// The SIMD search takes the strings it can when it costs less than
	// the anchors they would need.
	sc.w.on = false
	if anchors := t.cover(sc); sc.chooseWindows() && (sc.w.cost < anchors || sc.forceSIMD) {
		sc.w.on = true
		t.cover(sc)
	}
	sc.place(t.pickAll(sc))
	sc.first = false
}

// cover chooses the anchor keys of the strings still searched for that the
// SIMD search does not take: a greedy cover of the strings by keys, the key
// that covers most strings for what its occurrences and passes cost first.
// It returns what they cost, in occurrences per byte of text and passes
// counted at indexPass each.
func (t *tuner) cover(sc *Scanner) float64 {
	sc.set.keyIndex()
	t.count = [numKeys]int32{}
	t.chosen = [numKeys]bool{}
	left, total := 0, 0.0
	for id := range sc.set.lits {
		t.covered[id] = sc.off[id] || sc.w.covers(id)
		if !t.covered[id] {
			left++
			for _, k := range sc.set.keys[id] {
				t.count[k]++
			}
		}
	}
	for left > 0 {
		best, bestRatio := -1, 0.0
		for k, n := range t.count {
			if n == 0 || t.chosen[k] {
				continue
			}
			if r := float64(n) / t.cost(k); r > bestRatio {
				best, bestRatio = k, r
			}
		}
		total += t.freq(best)
		t.chosen[best] = true
		for _, c := range t.bytes(best) {
			if !t.planned[c] {
				t.planned[c] = true
				total += indexPass
			}
		}
		for _, id := range sc.set.byKey[best] {
			if !t.covered[id] {
				t.covered[id] = true
				left--
				for _, k := range sc.set.keys[id] {
					t.count[k]--
				}
			}
		}
	}
	t.planned = [256]bool{}
	return total
}

// bytes returns the byte values of key k.
func (t *tuner) bytes(k int) []byte {
	if k < 256 {
		return []byte{byte(k)}
	}
	return []byte{byte('a' + k - 256), byte('A' + k - 256)}
}

// freq is how often key k occurs, per byte of text.
func (t *tuner) freq(k int) float64 {
	if k < 256 {
		return t.est[k]
	}
	return t.est['a'+k-256] + t.est['A'+k-256]
}

// cost is what anchoring on key k costs: its occurrences and the passes of
// bytes not yet searched.
func (t *tuner) cost(k int) float64 {
	c := t.freq(k)
	for _, b := range t.bytes(k) {
		if !t.planned[b] {
			c += pass
		}
	}
	return c
}

// Frequencies guesses, for each byte value, the share of the bytes of
// command output that are it.
func Frequencies() *[256]float64 { return prior() }

// prior is a guess at how often each byte occurs in command output (English
// text, logs, paths, numbers), per byte, for when little text has been seen.
// It is computed when first needed, not when retry starts.
var prior = sync.OnceValue(func() (p *[256]float64) {
	p = new([256]float64)
	total := 0.0
	for c := range p {
		p[c] = float64(byteFrequency(byte(c)))
		total += p[c]
	}
	for c := range p {
		p[c] /= total
	}
	return p
})

// byteFrequency ranks b by how often it appears in typical command output.
func byteFrequency(b byte) int {
	for _, g := range [...]struct {
		bytes string
		freq  int
	}{
		{" ", 255}, {"e", 120}, {"t", 90}, {"ao", 80}, {"in", 70},
		{"srh", 60}, {"0123456789", 45}, {"dl", 40}, {"cu:./-=", 28},
		{"mwfgyp", 22}, {"b_,\"'", 15}, {"vk[]()", 9}, {"ETAOINSRH", 8},
		{"\t<>@#DLCUMWFGYPBVK", 4}, {"jxqzJXQZ", 2},
	} {
		if strings.IndexByte(g.bytes, b) >= 0 {
			return g.freq
		}
	}
	return 1
}
