package runner

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SlotID names the concurrency slots of the budget name kept in scope
// (Config.BudgetScope) as RETRY_SLOT lists them: NAME@SCOPE, the scope
// percent-encoded where it holds a '%', white space (which separates the
// slots there, as strings.Fields reads them: a no-break space too) or a
// control character, so that distinct scopes stay distinct. A budget's
// name holds no '@'.
func SlotID(name, scope string) string {
	if strings.IndexFunc(scope, slotEscaped) < 0 {
		return name + "@" + scope
	}
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('@')
	for i := 0; i < len(scope); {
		r, size := utf8.DecodeRuneInString(scope[i:])
		if !slotEscaped(r) {
			b.WriteString(scope[i : i+size]) // an invalid byte as it is too
		} else {
			for _, c := range []byte(scope[i : i+size]) {
				b.WriteByte('%')
				b.WriteByte("0123456789ABCDEF"[c>>4])
				b.WriteByte("0123456789ABCDEF"[c&15])
			}
		}
		i += size
	}
	return b.String()
}

// slotEscaped reports whether SlotID percent-encodes r.
func slotEscaped(r rune) bool {
	return r == '%' || unicode.IsSpace(r) || unicode.IsControl(r)
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
