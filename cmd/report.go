package cmd

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/runner"
)

// report is the JSON report (docs/report.md): schema version 1, or 2
// for a run until a failure, whose outcomes and class a reader of version
// 1 does not know.
type report struct {
	Version        int            `json:"version"`
	Until          string         `json:"until,omitempty"` // "fail" in version 2
	Command        []string       `json:"command"`
	Name           string         `json:"name"`
	Outcome        runner.Outcome `json:"outcome"`
	ExitCode       int            `json:"exit_code"`
	ElapsedMS      float64        `json:"elapsed_ms"`
	DeadlineMS     *float64       `json:"deadline_ms,omitempty"`
	SplayMS        *float64       `json:"splay_ms,omitempty"` // the wait before the first attempt (--splay)
	IdempotencyKey string         `json:"idempotency_key"`
	// AttemptsTotal and AttemptsOmitted are present when Attempts
	// leaves attempts out: a run of more than runner.KeepFirst +
	// runner.KeepLast lists the first and the last ones only.
	AttemptsTotal   *int            `json:"attempts_total,omitempty"`
	AttemptsOmitted *int            `json:"attempts_omitted,omitempty"`
	Attempts        []attemptReport `json:"attempts"`
	BudgetStore     *storeReport    `json:"budget_store,omitempty"`
	// Flaky is present, true, after a flaky pass: an attempt succeeded
	// after at least one failed.
	Flaky bool `json:"flaky,omitempty"`
	// CI is the CI system the operation ran under; absent outside CI.
	CI *ciReport `json:"ci,omitempty"`
}

// ciReport is the CI system in the JSON report, and its own attempt of
// the job where it says it.
type ciReport struct {
	System     string `json:"system"`
	JobAttempt *int   `json:"job_attempt,omitempty"`
}

// newCIReport returns the report's ci, nil outside CI.
func newCIReport(c ciRun) *ciReport {
	if c.system == nil {
		return nil
	}
	r := &ciReport{System: c.system.Name()}
	if c.jobAttempt > 0 {
		r.JobAttempt = ptr(c.jobAttempt)
	}
	return r
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
	// OnRetry is how the --on-retry command run after it ended.
	OnRetry *hookReport `json:"on_retry,omitempty"`
	DelayMS *float64    `json:"delay_ms,omitempty"`
	// BackoffReset is present, true, when --reset-after started the
	// backoff over after this attempt.
	BackoffReset bool `json:"backoff_reset,omitempty"`
}

// hookReport is one run of the --on-retry command in the JSON report.
type hookReport struct {
	DurationMS float64 `json:"duration_ms"`
	ExitCode   *int    `json:"exit_code,omitempty"`
	Signal     string  `json:"signal,omitempty"`
	TimedOut   bool    `json:"timed_out"`
}

func newHookReport(h *runner.Hook) *hookReport {
	hr := &hookReport{DurationMS: millis(h.Duration), TimedOut: h.TimedOut}
	if h.Signal != 0 {
		hr.Signal = proc.SignalName(h.Signal)
	} else {
		hr.ExitCode = ptr(h.ExitCode)
	}
	return hr
}

// newReport builds the report of res, the operation called name. command
// is shown as given: the caller hides its secrets; r hides those of the
// reasons, which may quote the command's output, and cuts them to 200
// characters.
func newReport(name string, command []string, res *runner.Result, code int, r reasoner) *report {
	rep := &report{
		Version:        1,
		Command:        command,
		Name:           name,
		Outcome:        res.Outcome,
		ExitCode:       code,
		ElapsedMS:      millis(res.Elapsed),
		IdempotencyKey: res.IdempotencyKey,
		Attempts:       make([]attemptReport, 0, len(res.Attempts)),
		BudgetStore:    newStoreReport(res.StoreOutage),
		Flaky:          flaky(res),
	}
	if omitted := res.Omitted(); omitted > 0 {
		rep.AttemptsTotal, rep.AttemptsOmitted = ptr(res.Total), ptr(omitted)
	}
	if res.UntilFailure {
		rep.Version, rep.Until = 2, untilFail
	}
	if !res.Deadline.IsZero() {
		// An enclosing retry's deadline (RETRY_DEADLINE) may have passed
		// before this operation started: that leaves it no time, not a
		// negative amount.
		rep.DeadlineMS = ptr(millis(max(0, res.Deadline.Sub(res.Started))))
	}
	if res.Splayed {
		rep.SplayMS = ptr(millis(res.Splay))
	}
	for i := range res.Attempts {
		a := &res.Attempts[i]
		ar := attemptReport{
			Attempt:      a.Number,
			StartedAt:    a.Started.UTC().Format(runner.DeadlineLayout),
			DurationMS:   millis(a.Duration),
			TimedOut:     a.TimedOut,
			Class:        a.Class.String(),
			Reason:       r.Reason(a.Reason),
			BackoffReset: a.BackoffReset,
		}
		if a.Signal != 0 {
			ar.Signal = proc.SignalName(a.Signal)
		} else {
			ar.ExitCode = ptr(a.ExitCode)
		}
		if a.HasHint {
			ar.HintMS = ptr(millis(a.Hint))
		}
		if a.Hook != nil {
			ar.OnRetry = newHookReport(a.Hook)
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

// reportJSON encodes rep as --summary-file and --summary json write it:
// indented, and with <, > and & as themselves, as a command shows them.
func reportJSON(rep *report) ([]byte, error) { return encodeJSON(rep) }

// encodeJSON encodes v indented, and with <, > and & as themselves.
func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeReport writes rep to path atomically: a private temporary file in
// the same directory, flushed to disk and renamed over path, so a reader
// never sees half a report, even after a crash. The file's mode is 0600.
//
// A path that names a FIFO, a terminal or another device, such as
// /dev/stderr or /dev/fd/3, is written into instead: such a file cannot be
// replaced atomically, and replacing it would break it for its reader (a
// FIFO's would wait forever) and, as root, for every other process. Its
// mode is left as it is.
//
// A path that is a symbolic link is followed: the file it points to is
// replaced (or created), and the link stays.
func writeReport(path string, rep *report) error {
	data, err := reportJSON(rep)
	if err != nil {
		return err
	}
	if path, err = followLinks(path); err != nil {
		return err
	}
	return replaceFile(path, ".retry-report-*", data, 0o600)
}

// replaceFile replaces the file at path, which is no symbolic link, with
// one holding data and having mode: a temporary file named after pattern
// in the same directory, flushed to disk and renamed over path. A FIFO, a
// terminal or another device at path is written into instead (see
// writeReport).
func replaceFile(path, pattern string, data []byte, mode os.FileMode) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		// Non-blocking: a FIFO that no one reads is an error, not a
		// hang that only SIGKILL would end.
		f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), pattern)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// maxLinks is how many symbolic links followLinks follows, as Linux's
// path resolution does, before it gives up with ELOOP.
const maxLinks = 40

// followLinks returns the file that path names once its last element is
// no longer a symbolic link: the file a rename must replace to keep the
// link. A link to a file that does not exist yet gives that file's path.
func followLinks(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path, nil // a missing file is created; other errors show up when it is written
		}
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			// Relative to the link's real directory, as the system
			// resolves it: a ".." in target leaves that one, not the
			// directory path spells.
			dir := filepath.Dir(path)
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				dir = real
			}
			target = filepath.Join(dir, target)
		}
		path = target
	}
	return "", &os.PathError{Op: "open", Path: path, Err: syscall.ELOOP}
}
