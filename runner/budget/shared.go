package budget

import "time"

// StoreError is a failure of the store that keeps a budget for many
// machines (see runner/budget/redisstore): it cannot be reached, answers
// too slowly, or refuses. Store names the store without its password.
// The operation then goes on without the budget, or refuses what needs
// it, as its caller chose.
type StoreError struct {
	Store string
	Err   error
}

// Error says which store failed and how; it names the "budget store".
func (e *StoreError) Error() string { return "budget store " + e.Store + ": " + e.Err.Error() }

// Unwrap returns the store's error.
func (e *StoreError) Unwrap() error { return e.Err }

// NewSlot returns a slot held elsewhere than in this package's files, such
// as a lease in a shared store: release frees it, and is called once at
// most.
func NewSlot(index int, waited time.Duration, release func() error) *Slot {
	return &Slot{Index: index, Waited: waited, release: release}
}
