package cmd

import (
	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/budget"
	"github.com/b0a38808/retry/runner/budget/redisstore"
)

// envBudgetStore names the budget store when --budget-store is absent.
const envBudgetStore = "RETRY_BUDGET_STORE"

// storeForms is the hint of a bad store URL.
const storeForms = "the forms are redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] (rediss:// for TLS), redis+sentinel://[[USER]:PASSWORD@]HOST[:PORT][,HOST[:PORT]...]/MASTER[/DB] and unix:///PATH?db=N; the parameters cacert, cert, key, sni and timeout"

// storeOptions are the flags that keep a budget in Redis, shared by every
// machine that names it there (docs/at-scale.md, "A budget for a fleet").
type storeOptions struct {
	url         string
	unavailable string

	addr *redisstore.Address // the store, checked; nil for a local budget
	mode runner.StoreFailure
}

// register declares the flags on fs.
func (o *storeOptions) register(fs *pflag.FlagSet) {
	fs.StringVar(&o.url, "budget-store", "", "with --budget: keep the budget and its --max-concurrent cap in Redis at `URL`, shared by every machine that names it there: redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] (one server, or any node of a Cluster; rediss:// for TLS), redis+sentinel://HOST[,HOST...]/MASTER[/DB] or unix:///PATH?db=N, with ?cacert=, cert=, key=, sni=, timeout= (default $RETRY_BUDGET_STORE)")
	fs.StringVar(&o.unavailable, "budget-unavailable", "open", "when the budget store cannot be reached or refuses, `MODE`: open goes on without the budget, closed refuses retries")
}

// configure checks the flags, and RETRY_BUDGET_STORE when --budget-store
// is absent, for the budget --budget names; fs tells which flags were
// given (nil: none). The URL is never quoted: it may hold a password.
func (o *storeOptions) configure(fs *pflag.FlagSet, getenv func(string) string) error {
	changed := func(name string) bool { return fs != nil && fs.Changed(name) }
	if o.unavailable == "" && !changed("budget-unavailable") {
		o.unavailable = "open" // options made without register, in tests
	}
	switch o.unavailable {
	case "open":
		o.mode = runner.FailOpen
	case "closed":
		o.mode = runner.FailClosed
	default:
		return usagef("", "--budget-unavailable: must be open or closed, got %q", o.unavailable)
	}
	raw, source := o.url, "--budget-store"
	if !changed("budget-store") {
		raw, source = getenv(envBudgetStore), envBudgetStore
	} else if raw == "" {
		return usagef("name the store, or leave the flag out to keep the budget on this machine", "--budget-store: must not be empty")
	}
	if raw == "" {
		if changed("budget-unavailable") {
			return usagef("name the store with --budget-store URL or "+envBudgetStore, "--budget-unavailable needs a budget store")
		}
		return nil
	}
	if changed("state-dir") {
		hint := "a budget lives on this machine (--state-dir) or in a store (--budget-store), not both"
		if source == envBudgetStore {
			hint += "; unset " + envBudgetStore + " for a budget on this machine"
		}
		return usagef(hint, "%s can't be used with --state-dir", source)
	}
	addr, err := redisstore.ParseURL(raw)
	if err != nil {
		return usagef(storeForms, "%s: %s", source, err)
	}
	if err := addr.LoadTLS(); err != nil {
		return usagef("", "%s: %s", source, err)
	}
	o.addr = &addr
	return nil
}

// open puts the budget name, kept in the store, in cfg when a store is
// named, and reports whether it did; closeStore closes it. Nothing is
// sent to the store until the first attempt asks.
func (o *storeOptions) open(cfg *runner.Config, name string, p budget.Policy, slots int) (closeStore func(), ok bool, err error) {
	if o.addr == nil {
		return nil, false, nil
	}
	s, err := redisstore.Open(*o.addr, name, p, redisstore.Options{})
	if err != nil {
		return nil, true, usagef("", "--budget: %s", err)
	}
	cfg.Budget, cfg.MaxConcurrent, cfg.BudgetUnavailable = s, slots, o.mode
	cfg.BudgetScope = o.addr.String() // without the password
	return func() { s.Close() }, true, nil
}

// note says, for retry explain, where the budget lives and what an outage
// does; empty for a budget on this machine.
func (o *storeOptions) note() string {
	if o.addr == nil {
		return ""
	}
	then := "goes on without the budget and its cap (--budget-unavailable open)"
	if o.mode == runner.FailClosed {
		then = "makes no retry, and no attempt under a cap (--budget-unavailable closed)"
	}
	return "the budget is kept in the budget store " + o.addr.String() + " (" + o.addr.Describe() + "), shared by every machine that names it there; when the store fails, the operation " + then
}

// storeReport is the JSON report's "budget_store": present when the
// budget's store failed during the operation.
type storeReport struct {
	// Error is the first failure, which names the store without its
	// password.
	Error string `json:"error"`
	// Failed is "open" or "closed": what the operation did then.
	Failed string `json:"failed"`
}

// newStoreReport returns the report of an outage, or nil without one.
func newStoreReport(o *runner.StoreOutage) *storeReport {
	if o == nil {
		return nil
	}
	return &storeReport{Error: o.Error, Failed: o.Failed.String()}
}
