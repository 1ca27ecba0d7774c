package literal

import "strings"

// tuner chooses each string's anchor: the byte of the string that costs
// least to search for in text like the sample. Its tables live in the
// Scanner so that choosing again allocates nothing.
type tuner struct {
	count [256]int32
	est   [256]float64 // how often each byte occurs, per byte of text
	used  [256]bool
}

// pass is what one more anchor byte costs, in occurrences per byte of text:
// an IndexByte pass over a run costs about as much as checking an
// occurrence every few hundred bytes.
const pass = 1.0 / 300

// priorWeight is how many bytes of text the guess of byteFrequency counts
// for beside the sample.
const priorWeight = 512

// choose sets sc's anchors for the strings still searched for.
func (t *tuner) choose(sc *Scanner, sample []byte) {
	t.count = [256]int32{}
	for _, c := range sample {
		t.count[c]++
	}
	n := float64(len(sample))
	for c := range t.est {
		t.est[c] = (float64(t.count[c]) + prior[c]*priorWeight) / (n + priorWeight)
	}
	for _, c := range sc.active {
		sc.anchors[c].ents = sc.anchors[c].ents[:0]
		t.used[c] = false
	}
	sc.active = sc.active[:0]
	for id, l := range sc.set.lits {
		if sc.off[id] {
			continue
		}
		best, bestCost := -1, 0.0
		for i, c := range l.text {
			cost := t.cost(c)
			if l.fold && 'a' <= c && c <= 'z' {
				cost += t.cost(c - 'a' + 'A')
			}
			if best < 0 || cost < bestCost {
				best, bestCost = i, cost
			}
		}
		c, e := l.text[best], entry{lit: &sc.set.lits[id], id: int32(id), off: int32(best)}
		t.add(sc, c, e)
		if l.fold && 'a' <= c && c <= 'z' {
			t.add(sc, c-'a'+'A', e)
		}
	}
}

// cost is what anchoring one more string on c adds.
func (t *tuner) cost(c byte) float64 {
	if t.used[c] {
		return t.est[c]
	}
	return t.est[c] + pass
}

func (t *tuner) add(sc *Scanner, c byte, e entry) {
	if !t.used[c] {
		t.used[c] = true
		sc.active = append(sc.active, c)
	}
	sc.anchors[c].ents = append(sc.anchors[c].ents, e)
}

// prior is a guess at how often each byte occurs in command output (English
// text, logs, paths, numbers), per byte, for when little text has been seen.
var prior = func() (p [256]float64) {
	total := 0.0
	for c := range p {
		p[c] = float64(byteFrequency(byte(c)))
		total += p[c]
	}
	for c := range p {
		p[c] /= total
	}
	return p
}()

// Frequency guesses the share of the bytes of command output that are c.
func Frequency(c byte) float64 { return prior[c] }

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
