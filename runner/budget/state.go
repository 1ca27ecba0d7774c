package budget

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// stateVersion is the version of the state file's format.
const stateVersion = 1

// maxStateSize bounds what is read of a state file; anything longer is
// corrupt (a full window is a few kilobytes).
const maxStateSize = 64 << 10

// maxCount bounds one bucket's counts, so that sums over the window stay far
// from overflow in Policy.Allowance.
const maxCount = 1 << 32

// bucket counts what happened in one second of the window.
type bucket struct {
	Second  int64 `json:"s"`
	Firsts  int64 `json:"firsts"`
	Retries int64 `json:"retries"`
}

// state is the content of a budget's state file: the window's buckets,
// oldest first.
type state struct {
	Version int      `json:"version"`
	Buckets []bucket `json:"buckets"`
}

// decodeState parses a state file. Empty data is a budget never used. An
// error means the file is corrupt and says how.
func decodeState(data []byte) (state, error) {
	if len(data) == 0 {
		return state{Version: stateVersion}, nil
	}
	if len(data) > maxStateSize {
		return state{}, fmt.Errorf("larger than %d bytes", maxStateSize)
	}
	var s state
	if err := json.Unmarshal(data, &s); err != nil {
		return state{}, err
	}
	if s.Version != stateVersion {
		return state{}, fmt.Errorf("unknown version %d", s.Version)
	}
	for _, b := range s.Buckets {
		if b.Firsts < 0 || b.Retries < 0 || b.Firsts > maxCount || b.Retries > maxCount {
			return state{}, errors.New("count out of range")
		}
	}
	return s, nil
}

// encode returns the state file's content.
func (s state) encode() []byte {
	data, err := json.Marshal(s)
	if err != nil {
		// A struct of ints always marshals.
		panic(err)
	}
	return append(data, '\n')
}

// prune drops the buckets outside the window around now: older than Window,
// or further ahead than Window (left by a clock that was set back, they
// would otherwise hold the budget empty until the clock caught up), sorts
// the rest and merges buckets of the same second.
func (s *state) prune(now time.Time) {
	slices.SortStableFunc(s.Buckets, func(a, b bucket) int { return cmp.Compare(a.Second, b.Second) })
	sec := now.Unix()
	span := int64(Window / time.Second)
	kept := s.Buckets[:0]
	for _, b := range s.Buckets {
		if b.Second <= sec-span || b.Second >= sec+span {
			continue
		}
		if n := len(kept); n > 0 && kept[n-1].Second == b.Second {
			kept[n-1].Firsts = min(kept[n-1].Firsts+b.Firsts, maxCount)
			kept[n-1].Retries = min(kept[n-1].Retries+b.Retries, maxCount)
			continue
		}
		kept = append(kept, b)
	}
	s.Buckets = kept
}

// totals returns the window's first attempts and retries.
func (s state) totals() (firsts, retries int64) {
	for _, b := range s.Buckets {
		firsts += b.Firsts
		retries += b.Retries
	}
	return firsts, retries
}

// add counts first attempts and retries at now.
func (s *state) add(now time.Time, firsts, retries int64) {
	sec := now.Unix()
	i := len(s.Buckets)
	for i > 0 && s.Buckets[i-1].Second > sec {
		i--
	}
	if i > 0 && s.Buckets[i-1].Second == sec {
		b := &s.Buckets[i-1]
		b.Firsts = min(b.Firsts+firsts, maxCount)
		b.Retries = min(b.Retries+retries, maxCount)
		return
	}
	s.Buckets = append(s.Buckets, bucket{})
	copy(s.Buckets[i+1:], s.Buckets[i:])
	s.Buckets[i] = bucket{Second: sec, Firsts: firsts, Retries: retries}
}
