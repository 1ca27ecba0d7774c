package cmd

import (
	"strings"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner"
)

// TestNestingAndBudgetFlags checks the flags and variables that keep many
// retries safe together, applied in the order options.config applies them.
func TestNestingAndBudgetFlags(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	outer := "2026-11-30T07:00:30.000Z"
	tests := []struct {
		name         string
		budget       budgetOptions
		nesting      nestingOptions
		depth        int
		attempts     int
		deadline     time.Time
		key          string
		env          map[string]string
		wantAttempts int
		wantDeadline time.Time
		wantNote     bool
		wantKey      string
		wantErr      string
	}{
		{name: "top level: unchanged", attempts: 3, wantAttempts: 3},
		{name: "nested: one attempt", depth: 1, attempts: 3, wantAttempts: 1, wantNote: true},
		{name: "nested, unlimited: one attempt", depth: 2, attempts: 0, deadline: t0.Add(time.Hour), wantAttempts: 1, wantDeadline: t0.Add(time.Hour), wantNote: true},
		{name: "nested, one asked: nothing to say", depth: 1, attempts: 1, wantAttempts: 1},
		{name: "--nested: retries here too", nesting: nestingOptions{nested: true}, depth: 1, attempts: 3, wantAttempts: 3},
		{name: "outer deadline, none here: taken", nesting: nestingOptions{nested: true}, depth: 1, attempts: 3, env: map[string]string{"RETRY_DEADLINE": outer}, wantAttempts: 3, wantDeadline: t0.Add(30 * time.Second)},
		{name: "outer deadline earlier: clipped", nesting: nestingOptions{nested: true}, depth: 1, attempts: 3, deadline: t0.Add(time.Hour), env: map[string]string{"RETRY_DEADLINE": outer}, wantAttempts: 3, wantDeadline: t0.Add(30 * time.Second)},
		{name: "own deadline earlier: kept", nesting: nestingOptions{nested: true}, depth: 1, attempts: 3, deadline: t0.Add(time.Second), env: map[string]string{"RETRY_DEADLINE": outer}, wantAttempts: 3, wantDeadline: t0.Add(time.Second)},
		{name: "outer deadline with an offset", nesting: nestingOptions{nested: true}, depth: 1, attempts: 3, env: map[string]string{"RETRY_DEADLINE": "2026-11-30T08:00:30.5+01:00"}, wantAttempts: 3, wantDeadline: t0.Add(30*time.Second + 500*time.Millisecond)},
		{name: "bad outer deadline", depth: 1, attempts: 3, env: map[string]string{"RETRY_DEADLINE": "tomorrow"}, wantErr: "RETRY_DEADLINE: must be an RFC 3339 time"},
		{name: "top level: a stray deadline is ignored", attempts: 3, env: map[string]string{"RETRY_DEADLINE": outer}, wantAttempts: 3},
		{name: "top level: a bad stray deadline is ignored", attempts: 3, env: map[string]string{"RETRY_DEADLINE": "tomorrow"}, wantAttempts: 3},
		{name: "nested: the outer key is kept", depth: 1, attempts: 1, env: map[string]string{"RETRY_IDEMPOTENCY_KEY": "outer-key"}, wantAttempts: 1, wantKey: "outer-key"},
		{name: "nested: --idempotency-key wins", depth: 1, attempts: 1, key: "mine", env: map[string]string{"RETRY_IDEMPOTENCY_KEY": "outer-key"}, wantAttempts: 1, wantKey: "mine"},
		{name: "top level: a stray key is not inherited", attempts: 1, env: map[string]string{"RETRY_IDEMPOTENCY_KEY": "stray"}, wantAttempts: 1},
		{name: "budget", budget: budgetOptions{budget: "api", budgetRatio: "0.25", maxConcurrent: "4"}, attempts: 3, wantAttempts: 3},
		{name: "bad budget name", budget: budgetOptions{budget: "a b", budgetRatio: "0.1"}, wantErr: "--budget: may hold only"},
		{name: "bad ratio", budget: budgetOptions{budget: "api", budgetRatio: "NaN"}, wantErr: "--budget-ratio: must be a number from 0 to 1000"},
		{name: "ratio too large", budget: budgetOptions{budget: "api", budgetRatio: "1001"}, wantErr: "--budget-ratio"},
		{name: "bad cap", budget: budgetOptions{budget: "api", budgetRatio: "0.1", maxConcurrent: "1025"}, wantErr: "--max-concurrent: must be an integer from 1 to 1024"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := runner.Config{Attempts: tt.attempts, Deadline: tt.deadline, Depth: tt.depth, IdempotencyKey: tt.key}
			b, n := tt.budget, tt.nesting
			err := b.check(func(string) string { return "" })
			if err == nil {
				err = n.apply(&cfg, func(k string) string { return tt.env[k] })
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Attempts != tt.wantAttempts || !cfg.Deadline.Equal(tt.wantDeadline) {
				t.Errorf("attempts %d, deadline %v; want %d, %v", cfg.Attempts, cfg.Deadline, tt.wantAttempts, tt.wantDeadline)
			}
			if cfg.IdempotencyKey != tt.wantKey {
				t.Errorf("idempotency key %q, want %q", cfg.IdempotencyKey, tt.wantKey)
			}
			if (n.note != "") != tt.wantNote {
				t.Errorf("note = %q, want one: %v", n.note, tt.wantNote)
			}
		})
	}
}
