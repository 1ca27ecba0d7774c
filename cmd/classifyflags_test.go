package cmd

import (
	"strings"
	"testing"

	"github.com/b0a38808/retry/runner/classify"
)

// TestPresetsTextListsEveryRule checks the `retry presets` listing.
func TestPresetsTextListsEveryRule(t *testing.T) {
	text := presetsText(classify.Presets())
	for _, p := range classify.Presets() {
		if !strings.Contains(text, p.Name+": "+p.Summary+"\n") {
			t.Errorf("retry presets lacks %s", p.Name)
		}
		if p.Blind != "" && !strings.Contains(text, "  blind spots: "+p.Blind+"\n") {
			t.Errorf("retry presets lacks the blind spots of %s", p.Name)
		}
		for _, r := range p.Rules {
			if !strings.Contains(text, "source: "+r.Source+"\n") {
				t.Errorf("retry presets lacks the source %q", r.Source)
			}
		}
	}
}

// TestPresetsList checks `retry presets` without a name: one line per
// preset, its name and its summary.
func TestPresetsList(t *testing.T) {
	ps := classify.Presets()
	lines := strings.Split(strings.TrimSuffix(presetsList(ps), "\n"), "\n")
	if len(lines) != len(ps) {
		t.Fatalf("%d lines for %d presets", len(lines), len(ps))
	}
	for i, p := range ps {
		name, summary, _ := strings.Cut(lines[i], " ")
		if name != p.Name || strings.TrimLeft(summary, " ") != p.Summary {
			t.Errorf("line %d = %q; want %s and its summary", i+1, lines[i], p.Name)
		}
	}
}
