package cmd

import (
	"os"
	"strings"
	"testing"

	"github.com/b0a38808/retry/runner/classify"
)

// TestClassificationDocPresets fails when docs/classification.md no longer
// shows a preset's rules and sources as the code has them.
func TestClassificationDocPresets(t *testing.T) {
	doc, err := os.ReadFile("../docs/classification.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	for _, p := range classify.Presets() {
		if !strings.Contains(text, "### "+p.Name+"\n") {
			t.Errorf("docs/classification.md has no section for preset %s", p.Name)
		}
		for _, r := range p.Rules {
			cell := "`" + string(r.Kind) + " " + strings.ReplaceAll(r.Value, "|", `\|`) + "`"
			if !strings.Contains(text, cell) {
				t.Errorf("docs/classification.md lacks preset %s rule %s", p.Name, cell)
			}
			if !strings.Contains(text, strings.ReplaceAll(r.Source, "|", `\|`)) {
				t.Errorf("docs/classification.md lacks the source of preset %s rule %s: %s", p.Name, cell, r.Source)
			}
		}
	}
}

// TestPresetsTextListsEveryRule checks the `retry presets` listing.
func TestPresetsTextListsEveryRule(t *testing.T) {
	text := presetsText()
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
