package literal

import (
	"encoding/binary"
	"strings"
	"sync"
)

// A choice is made from a sample of the text: its first sampleSize bytes
// counted by value and, with the SIMD search, its first winSample bytes
// counted by window of four bytes (hashed, gramSlots counts) and kept, to
// try the buckets on (sim.go).
const (
	sampleSize = 8 << 10
	winSample  = 2 << 10
	gramSlots  = 1 << 12
)

// priorWeight is how many bytes of text the guess of byteFrequency counts
// for beside a sample.
const priorWeight = 256

// sample is the text gathered for the next choice, over as many runs as it
// takes.
type sample struct {
	n     int // bytes counted
	bytes [256]int32
	gramN int                  // windows counted
	grams [2][gramSlots]uint16 // by hash: exact, and with ASCII letters in lower case
	textN int                  // bytes kept
	text  [winSample]byte
}

// clear empties s.
func (s *sample) clear() { *s = sample{} }

// add adds the first bytes of b that s still needs, with windows when
// windows is set, and reports whether s is full.
func (s *sample) add(b []byte, windows bool) bool {
	m := min(len(b), sampleSize-s.n)
	for _, c := range b[:m] {
		s.bytes[c]++
	}
	s.n += m
	if windows {
		s.addGrams(b[:min(len(b), winSample-s.gramN)])
		s.textN += copy(s.text[s.textN:], b)
	}
	return s.n >= sampleSize
}

// addGrams counts the windows of b.
func (s *sample) addGrams(b []byte) {
	for i := 0; i+winSize <= len(b); i++ {
		k := binary.LittleEndian.Uint32(b[i:])
		s.grams[0][gramHash(k)]++
		s.grams[1][gramHash(lowerWord(b[i:]))]++
	}
	s.gramN += max(len(b)-winSize+1, 0)
}

func gramHash(k uint32) uint32 { return (k * 0x9e3779b1) >> 20 }

// estimates is what the last sample taught: how often each byte occurs,
// and, with the SIMD search, the sample itself, whose windows' counts and
// text the choice reads. Both are read only while choosing, just after learn.
type estimates struct {
	bytes [256]float64 // per byte of text
	smp   *sample      // the sample learnt from, when it kept text; else nil
}

// learn sets e from what s holds.
func (e *estimates) learn(s *sample) {
	n, prior := float64(s.n), prior()
	for c := range e.bytes {
		e.bytes[c] = (float64(s.bytes[c]) + prior[c]*priorWeight) / (n + priorWeight)
	}
	e.smp = nil
	if s.textN > 0 {
		e.smp = s
	}
}

// winEst is how often window k occurs, per byte of text: its count in the
// sample, as in winSample bytes, blended with the guess from its bytes.
func (e *estimates) winEst(k uint32) float64 {
	p := indepEst(&e.bytes, k)
	if s := e.smp; s != nil {
		fold := 0
		if k&winFold != 0 {
			fold = 1
		}
		c := int(s.grams[fold][gramHash(k&^winFold)])
		if s.gramN < winSample {
			c = c * winSample / max(s.gramN, 1)
		}
		p = (float64(c) + p*priorWeight) / (winSample + priorWeight)
	}
	return p
}

// indepEst is how often window k occurs, per byte of text, were its bytes
// independent.
func indepEst(est *[256]float64, k uint32) float64 {
	f := 1.0
	for j := range winSize {
		c := byte(k &^ winFold >> (8 * j))
		p := est[c]
		if k&winFold != 0 && isLower(c) {
			p += est[c-'a'+'A']
		}
		f *= p
	}
	return f
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
