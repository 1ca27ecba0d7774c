package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/b0a38808/retry/runner/classify"
)

// TestManualStatesTheOrder fails when the manual's "Classification" list,
// the one statement of the order for users, has not one item for each
// classify.Step, in order, each naming the flag whose rules its step
// applies.
func TestManualStatesTheOrder(t *testing.T) {
	manual, err := os.ReadFile(filepath.Join("..", "manual.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(manual), "\n## Classification\n")
	if !ok {
		t.Fatal(`docs/manual.md has no "## Classification" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	// The section's first list: an item starts a line with its number.
	starts := regexp.MustCompile(`(?m)^(\d+)\. `).FindAllStringSubmatchIndex(section, -1)
	var items []string
	for i, st := range starts {
		if section[st[2]:st[3]] != strconv.Itoa(len(items)+1) {
			break
		}
		end := len(section)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		items = append(items, section[st[0]:end])
	}
	steps := classify.Order()
	if len(items) != len(steps) {
		t.Fatalf("docs/manual.md's Classification lists %d steps, classify.Order has %d", len(items), len(steps))
	}
	for i, s := range steps {
		if s.Number != i+1 {
			t.Errorf("classify.Order's step %d is numbered %d", i+1, s.Number)
		}
		if s.Kind != "" && !strings.Contains(items[i], "`"+string(s.Kind)+" ") {
			t.Errorf("docs/manual.md's Classification item %d does not name %s, whose rules step %d applies", i+1, s.Kind, s.Number)
		}
	}
}
