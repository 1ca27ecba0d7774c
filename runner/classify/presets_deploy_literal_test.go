package classify

import "testing"

// TestDeployPresetsHaveLiterals: every output rule of these presets names a
// literal that any match contains, so that the matcher can skip the lines
// without it instead of running the expression on every line.
func TestDeployPresetsHaveLiterals(t *testing.T) {
	for _, p := range deployPresets() {
		for _, r := range p.Rules {
			if r.Kind != RetryIf && r.Kind != StopIf {
				continue
			}
			if literals(r.Value) == nil {
				t.Errorf("preset %s: %s %q requires no literal", p.Name, r.Kind, r.Value)
			}
		}
	}
}
