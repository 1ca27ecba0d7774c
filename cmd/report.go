package cmd

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/proc"
)

// report is the JSON report, schema version 1 (SPEC.md, docs/report.md).
type report struct {
	Version        int             `json:"version"`
	Command        []string        `json:"command"`
	Outcome        runner.Outcome  `json:"outcome"`
	ExitCode       int             `json:"exit_code"`
	ElapsedMS      float64         `json:"elapsed_ms"`
	DeadlineMS     *float64        `json:"deadline_ms,omitempty"`
	IdempotencyKey string          `json:"idempotency_key"`
	Attempts       []attemptReport `json:"attempts"`
}

// attemptReport is one attempt in the JSON report.
type attemptReport struct {
	Attempt    int      `json:"attempt"`
	StartedAt  string   `json:"started_at"`
	DurationMS float64  `json:"duration_ms"`
	ExitCode   *int     `json:"exit_code,omitempty"`
	Signal     string   `json:"signal,omitempty"`
	TimedOut   bool     `json:"timed_out"`
	Class      string   `json:"class"`
	Reason     string   `json:"reason"`
	HintMS     *float64 `json:"hint_ms,omitempty"`
	DelayMS    *float64 `json:"delay_ms,omitempty"`
}

// timestampLayout is RFC 3339 in UTC with milliseconds.
const timestampLayout = "2006-01-02T15:04:05.000Z07:00"

func newReport(command []string, res *runner.Result, code int) *report {
	rep := &report{
		Version:        1,
		Command:        command,
		Outcome:        res.Outcome,
		ExitCode:       code,
		ElapsedMS:      millis(res.Elapsed),
		IdempotencyKey: res.IdempotencyKey,
		Attempts:       make([]attemptReport, 0, len(res.Attempts)),
	}
	if !res.Deadline.IsZero() {
		rep.DeadlineMS = ptr(millis(res.Deadline.Sub(res.Started)))
	}
	for i := range res.Attempts {
		a := &res.Attempts[i]
		ar := attemptReport{
			Attempt:    a.Number,
			StartedAt:  a.Started.UTC().Format(timestampLayout),
			DurationMS: millis(a.Duration),
			TimedOut:   a.TimedOut,
			Class:      a.Class.String(),
			Reason:     a.Reason,
		}
		if a.Signal != 0 {
			ar.Signal = proc.SignalName(a.Signal)
		} else {
			ar.ExitCode = ptr(a.ExitCode)
		}
		if a.HasHint {
			ar.HintMS = ptr(millis(a.Hint))
		}
		if a.HasDelay {
			ar.DelayMS = ptr(millis(a.Delay))
		}
		rep.Attempts = append(rep.Attempts, ar)
	}
	return rep
}

// millis renders d in milliseconds with one decimal.
func millis(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Millisecond)*10) / 10
}

func ptr[T any](v T) *T { return &v }

// writeReport writes rep to path atomically: a private temporary file in
// the same directory, renamed over path, so a reader never sees half a
// report. The file's mode is 0600.
func writeReport(path string, rep *report) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".retry-report-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
