package runner

import (
	"slices"
	"strings"
)

// SlotID names the concurrency slots of the budget name kept in scope
// (Config.BudgetScope) as RETRY_SLOT lists them: NAME@SCOPE, the scope
// percent-encoded where it holds a space (which separates the slots
// there) or a control character, so that distinct scopes stay distinct. A
// budget's name holds no '@'.
func SlotID(name, scope string) string {
	esc := strings.NewReplacer("%", "%25", " ", "%20", "\t", "%09", "\n", "%0A", "\r", "%0D")
	return name + "@" + esc.Replace(scope)
}

// nestedSlot returns the slot ID of the operation's budget, empty when it
// has no cap or no scope, and whether an enclosing attempt runs in one
// of its slots.
func (r *run) nestedSlot() (id string, shared bool) {
	if r.cfg.Budget == nil || r.cfg.MaxConcurrent <= 0 || r.cfg.BudgetScope == "" {
		return "", false
	}
	id = SlotID(r.cfg.Budget.Name(), r.cfg.BudgetScope)
	return id, slices.Contains(r.cfg.EnclosingSlots, id)
}

// slotsDown returns the RETRY_SLOT of the attempt about to run: the slots
// the enclosing attempts run in, and its own (r.slot). A retry nested in
// it then shares any of them, even through a retry between them that
// holds another budget's slot, or none.
func (r *run) slotsDown() string {
	slots := r.cfg.EnclosingSlots
	if r.slot != "" && !slices.Contains(slots, r.slot) {
		slots = append(slices.Clip(slots), r.slot)
	}
	return strings.Join(slots, " ")
}
