package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// exampleReport returns the example report of docs/report.md: the first
// JSON block there.
func exampleReport(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(data), "```json\n")
	block, _, closed := strings.Cut(block, "```")
	if !ok || !closed {
		t.Fatal("docs/report.md has no JSON block")
	}
	return block
}

// TestSchemaValidator proves that the validator accepts the example report
// of docs/report.md and catches each kind of drift, so that a passing
// report test means something.
func TestSchemaValidator(t *testing.T) {
	schema := loadSchema(t)
	example := exampleReport(t)
	good, err := decodeJSON([]byte(example))
	if err != nil {
		t.Fatal(err)
	}
	if errs := validate(schema, good); len(errs) > 0 {
		t.Fatalf("the example report is invalid:\n%s", strings.Join(errs, "\n"))
	}
	tests := []struct {
		name   string
		change func(r map[string]any)
		want   string
	}{
		{"wrong version", func(r map[string]any) { r["version"] = json.Number("3") }, "$.version"},
		{"version 2 without until", func(r map[string]any) { r["version"] = json.Number("2") }, "oneOf"},
		{"until in version 1", func(r map[string]any) { r["until"] = "fail" }, "oneOf"},
		{"unknown outcome", func(r map[string]any) { r["outcome"] = "given up" }, "$.outcome"},
		{"version 2 outcome in version 1", func(r map[string]any) { r["outcome"] = "failed" }, "oneOf"},
		{"version 1 outcome in version 2", func(r map[string]any) { r["version"], r["until"] = json.Number("2"), "fail" }, "oneOf"},
		{"version 2 class in version 1", func(r map[string]any) { attempt(r, 0)["class"] = "failure" }, "oneOf"},
		{"until other than fail", func(r map[string]any) {
			r["version"], r["until"], r["outcome"] = json.Number("2"), "success", "passed"
		}, "$.until"},
		{"missing outcome", func(r map[string]any) { delete(r, "outcome") }, `"outcome" is missing`},
		{"extra field", func(r map[string]any) { r["env"] = map[string]any{} }, `"env" is not allowed`},
		{"fractional exit code", func(r map[string]any) { r["exit_code"] = json.Number("1.5") }, "$.exit_code"},
		{"exit code out of range", func(r map[string]any) { r["exit_code"] = json.Number("300") }, "$.exit_code"},
		{"elapsed as string", func(r map[string]any) { r["elapsed_ms"] = "1s" }, "$.elapsed_ms"},
		{"empty command", func(r map[string]any) { r["command"] = []any{} }, "$.command"},
		{"missing name", func(r map[string]any) { delete(r, "name") }, `"name" is missing`},
		{"name with a space", func(r map[string]any) { r["name"] = "nightly backup" }, "$.name"},
		{"attempt both exit code and signal", func(r map[string]any) { attempt(r, 0)["signal"] = "SIGKILL" }, "oneOf"},
		{"attempt neither exit code nor signal", func(r map[string]any) { delete(attempt(r, 1), "signal") }, "oneOf"},
		{"attempt bad class", func(r map[string]any) { attempt(r, 0)["class"] = "transient" }, "$.attempts[0].class"},
		{"attempt bad time", func(r map[string]any) { attempt(r, 0)["started_at"] = "2026-11-30 07:00:00" }, "started_at"},
		{"attempt long reason", func(r map[string]any) { attempt(r, 0)["reason"] = strings.Repeat("x", 201) }, "maxLength"},
		{"attempt number zero", func(r map[string]any) { attempt(r, 0)["attempt"] = json.Number("0") }, "$.attempts[0].attempt"},
		{"attempt negative delay", func(r map[string]any) { attempt(r, 0)["delay_ms"] = json.Number("-1") }, "delay_ms"},
		{"attempt extra field", func(r map[string]any) { attempt(r, 2)["stdout"] = "x" }, `"stdout" is not allowed`},
		{"backoff reset false", func(r map[string]any) { attempt(r, 0)["backoff_reset"] = false }, "backoff_reset"},
		{"on_retry without status", func(r map[string]any) {
			attempt(r, 0)["on_retry"] = map[string]any{"duration_ms": json.Number("1"), "timed_out": false}
		}, "oneOf"},
		{"on_retry extra field", func(r map[string]any) {
			attempt(r, 0)["on_retry"] = map[string]any{"duration_ms": json.Number("1"), "timed_out": false, "exit_code": json.Number("0"), "output": "x"}
		}, `"output" is not allowed`},
		{"signal name", func(r map[string]any) { attempt(r, 1)["signal"] = "killed" }, "signal"},
		{"attempts_total alone", func(r map[string]any) { r["attempts_total"] = json.Number("250") }, `requires "attempts_omitted"`},
		{"attempts_omitted alone", func(r map[string]any) { r["attempts_omitted"] = json.Number("50") }, `requires "attempts_total"`},
		{"attempts_omitted zero", func(r map[string]any) {
			r["attempts_total"], r["attempts_omitted"] = json.Number("3"), json.Number("0")
		}, "$.attempts_omitted"},
		{"more than 200 attempts", func(r map[string]any) {
			r["attempts"] = slices.Repeat(r["attempts"].([]any), 67)
		}, "at most 200"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, _ := decodeJSON([]byte(example))
			tt.change(doc.(map[string]any))
			errs := validate(schema, doc)
			if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, tt.want) }) {
				t.Errorf("got errors %q, want one mentioning %q", errs, tt.want)
			}
		})
	}
	v2, _ := decodeJSON([]byte(example))
	r := v2.(map[string]any)
	r["version"], r["until"], r["outcome"] = json.Number("2"), "fail", "failed"
	attempt(r, 2)["class"] = "failure"
	if errs := validate(schema, v2); len(errs) > 0 {
		t.Errorf("the example made a report of version 2 is invalid:\n%s", strings.Join(errs, "\n"))
	}
	if errs := validate(map[string]any{"minProperties": json.Number("1")}, good); len(errs) != 1 {
		t.Errorf("an unknown keyword gave %q, want one error", errs)
	}
}

func attempt(r map[string]any, i int) map[string]any {
	return r["attempts"].([]any)[i].(map[string]any)
}
