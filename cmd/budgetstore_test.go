package cmd

import (
	"strings"
	"testing"

	"github.com/b0a38808/retry/internal/redact"
	"github.com/b0a38808/retry/runner"
)

// TestReportOfStoreOutage: a report with budget_store, in both modes, fits
// docs/report.schema.json; one without an outage has no budget_store.
func TestReportOfStoreOutage(t *testing.T) {
	schema := loadSchema(t)
	for _, mode := range []runner.StoreFailure{runner.FailOpen, runner.FailClosed} {
		t.Run(mode.String(), func(t *testing.T) {
			res := results()[runner.Budget]
			res.StoreOutage = &runner.StoreOutage{Error: "budget store redis://:***@127.0.0.1:1/0: connection refused", Failed: mode}
			data, err := reportJSON(newReport("sh", []string{"sh", "-c", "exit 1"}, res, 1, (*redact.Redactor)(nil)))
			if err != nil {
				t.Fatal(err)
			}
			rep := checkReport(t, schema, data)
			bs, ok := rep["budget_store"].(map[string]any)
			if !ok || bs["failed"] != mode.String() || !strings.Contains(bs["error"].(string), "connection refused") {
				t.Fatalf("budget_store = %v, want the error and %q", rep["budget_store"], mode)
			}
		})
	}
	data, err := reportJSON(newReport("sh", []string{"sh"}, results()[runner.Budget], 1, (*redact.Redactor)(nil)))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "budget_store") {
		t.Fatalf("a report without an outage has budget_store:\n%s", data)
	}
}
