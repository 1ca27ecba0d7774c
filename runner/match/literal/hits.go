package literal

import "slices"

// A window the cover takes on the counts of its sample (2 KiB) may still be
// common in the text, as "pack" is in every "packagefile" line of a build's
// output: each match of a window costs about what a candidate does, and its
// strings are checked. So the windows' matches are counted, and a window
// matching far more often than it was thought to is recorded with what was
// seen, and the windows are chosen again.

const (
	hitSpan = 256 << 10 // bytes of text the matches are counted over
	// A window is recorded when it matches more often than hitRate a byte
	// and hitMore times as often as estimated.
	hitRate = 1.0 / 4096
	hitMore = 4
	// maxObserved is how many windows are recorded, the latest kept;
	// maxRechoose how many choices the matches make between two looks at
	// the bytes' frequencies.
	maxObserved = 64
	maxRechoose = 4
)

// observed is a window that matched more often than estimated: its key and
// its matches per byte of text.
type observed struct {
	key  uint32
	rate float64
}

// checkHits counts the n bytes just searched and, every hitSpan bytes,
// records the windows that matched too often there and chooses again.
func (sc *Scanner) checkHits(n int) {
	w := &sc.w
	if !w.on {
		return
	}
	if w.hitBytes += n; w.hitBytes < hitSpan {
		return
	}
	span, more := float64(w.hitBytes), false
	for i := range w.wins {
		x := &w.wins[i]
		if r := float64(x.hits) / span; r > hitRate && r > hitMore*x.est {
			w.observe(x.fullKey(), r)
			more = true
		}
		x.hits = 0
	}
	w.hitBytes = 0
	if more && w.rechosen < maxRechoose {
		w.rechosen++
		sc.t.choose(sc)
	}
}

// observe records that window k matched rate times a byte.
func (w *windows) observe(k uint32, rate float64) {
	if i := slices.IndexFunc(w.obs, func(o observed) bool { return o.key == k }); i >= 0 {
		w.obs[i].rate = rate
		return
	}
	if len(w.obs) == maxObserved {
		w.obs = append(w.obs[:0], w.obs[1:]...)
	}
	w.obs = append(w.obs, observed{k, rate})
}

// seen returns how often window k was seen matching, per byte of text, or 0.
func (w *windows) seen(k uint32) float64 {
	for _, o := range w.obs {
		if o.key == k {
			return o.rate
		}
	}
	return 0
}

// fullKey is v's key as the windows' index has it (windowKey).
func (v *win) fullKey() uint32 {
	if v.fold != 0 {
		return v.key | winFold
	}
	return v.key
}
