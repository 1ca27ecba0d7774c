// Command storm is the evidence that retry's bounds hold a retry storm: a
// service on loopback fails every request for a minute, then recovers,
// while a couple of hundred clients, each a loop that starts a real retry
// process at a steady rate, keep calling it. It runs the same offered load
// under five policies (no jitter; the defaults; a budget shared on the
// machine; a budget each client keeps in one redis-server, as separate
// machines would; a budget of each client's own) and reports what the
// service saw: requests per second before, during and after the outage,
// the amplification, the time to recover, the operations' outcomes and
// times, and the clients' peak RSS.
//
//	go run ./bench/storm                 # prints the table (about 10 minutes)
//	go run ./bench/storm -docs docs      # rewrites docs/storms.md's table and docs/storms.svg
//	go run ./bench/storm -sim            # 10,000 clients' budget decisions against one Redis
//
// It builds retry from the tree it is run in (or runs -retry PATH) and a
// tiny client of the service (bench/storm/client). A run whose clients did
// not keep the stated rate of first attempts, within 10%, is reported as
// invalid and exits 1. The store and the simulation need redis-server.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/b0a38808/retry/runner/budget"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := mainErr(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "storm: %v\n", err)
		os.Exit(1)
	}
}

// defaultPlan is the storm docs/storms.md shows.
func defaultPlan() plan {
	return plan{
		clients: 200, interval: 10 * time.Second,
		before: 20 * time.Second, outage: 60 * time.Second, after: 30 * time.Second,
		seed:       1,
		retryFlags: []string{"-a", "5", "-d", "30s", "--max-delay", "5s"},
		deadline:   30 * time.Second,
		rule:       budget.DefaultPolicy(),
	}
}

func mainErr(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	p := defaultPlan()
	sc := defaultSim()
	fs := flag.NewFlagSet("storm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&p.clients, "clients", p.clients, "client loops")
	fs.DurationVar(&p.interval, "interval", p.interval, "each client starts one operation per `DUR`")
	fs.DurationVar(&p.before, "before", p.before, "the service answers 200 for `DUR` first")
	fs.DurationVar(&p.outage, "outage", p.outage, "then 503 for `DUR`")
	fs.DurationVar(&p.after, "after", p.after, "then 200 again for `DUR` while operations start")
	fs.Uint64Var(&p.seed, "seed", p.seed, "random seed of the clients' phases and jitter")
	only := fs.String("policies", "", "run only these policies, by number 1 to 5, comma-separated")
	retryBin := fs.String("retry", "", "the retry binary under test (default: built from this tree)")
	docs := fs.String("docs", "", "rewrite `DIR`/storms.md's generated section and DIR/storms.svg")
	sim := fs.Bool("sim", false, "simulate many clients' budget decisions against one redis-server instead")
	fs.IntVar(&sc.clients, "sim-clients", sc.clients, "with -sim: simulated clients")
	fs.DurationVar(&sc.duration, "sim-duration", sc.duration, "with -sim: how long operations start (at least 70s: the window must fill)")
	fs.IntVar(&sc.conns, "sim-conns", sc.conns, "with -sim: connections to the store")
	fs.DurationVar(&sc.saturate, "sim-saturate", sc.saturate, "with -sim: how long to ask as fast as the store answers")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *sim {
		return runSim(ctx, sc, stdout)
	}
	if p.clients < 1 || p.interval <= 0 || p.outage <= 0 || p.before < 0 || p.after <= 0 {
		return errors.New("-clients, -interval, -outage and -after must be positive, -before not negative")
	}
	pols, err := choose(policies(), *only)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "storm-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	t, err := prepare(dir, *retryBin)
	if err != nil {
		return err
	}
	var figs []figures
	for i, pol := range pols {
		pdir := filepath.Join(dir, "policy-"+strconv.Itoa(i+1))
		if err := os.Mkdir(pdir, 0o700); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "storm: %s: %d clients for %v\n", pol.name, p.clients, p.span())
		r, err := runPolicy(ctx, p, pol, t, pdir)
		if err != nil {
			return err
		}
		f := analyse(p, r)
		fmt.Fprintf(stderr, "storm: %s: %.1f, %.1f, %.1f req/s; %d ok, %d failed, %d out of budget\n",
			pol.name, f.rps[0], f.rps[1], f.rps[2], f.succeeded, f.failed, f.budget)
		figs = append(figs, f)
		os.RemoveAll(pdir)
	}
	md := markdown(p, figs, t.describe)
	if _, err := io.WriteString(stdout, md); err != nil {
		return err
	}
	var invalid []string
	for _, f := range figs {
		if !f.valid {
			invalid = append(invalid, f.policy.name+": "+f.why)
		}
	}
	if len(invalid) > 0 {
		return fmt.Errorf("invalid run (the clients did not keep the stated rate; try fewer -clients): %s", strings.Join(invalid, "; "))
	}
	if *docs != "" {
		return writeDocs(*docs, md, svg(p, figs))
	}
	return nil
}

// choose returns the policies named by number in list, or all of them.
func choose(all []policy, list string) ([]policy, error) {
	if list == "" {
		return all, nil
	}
	var out []policy
	for _, s := range strings.Split(list, ",") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > len(all) {
			return nil, fmt.Errorf("-policies: %q is not a number from 1 to %d", s, len(all))
		}
		out = append(out, all[n-1])
	}
	return out, nil
}

// prepare builds the client, and retry unless retryBin names it, into
// dir, and returns the tools the storm runs.
func prepare(dir, retryBin string) (tools, error) {
	t := tools{
		client: filepath.Join(dir, "stormclient"),
		env:    []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir},
	}
	if err := build(t.client, "github.com/b0a38808/retry/bench/storm/client"); err != nil {
		return t, err
	}
	if retryBin == "" {
		t.retry = filepath.Join(dir, "retry")
		if err := build(t.retry, "github.com/b0a38808/retry"); err != nil {
			return t, err
		}
		rev, _ := exec.Command("git", "describe", "--always", "--dirty").Output()
		t.describe = "built from " + strings.TrimSpace(string(rev))
	} else {
		abs, err := filepath.Abs(retryBin)
		if err != nil {
			return t, err
		}
		t.retry = abs
		t.describe = retryBin
	}
	out, err := exec.Command(t.retry, "--version").Output()
	if err != nil {
		return t, fmt.Errorf("%s --version: %v", t.retry, err)
	}
	t.describe = strings.TrimSpace(string(out)) + ", " + t.describe
	return t, nil
}

// build builds pkg to bin as a release is built (.goreleaser.yaml: static,
// stripped; a binary linked with libc holds about 1.5 MiB more), through a
// copy: a binary the linker has just written starts more slowly than a
// copy of it (docs/dev/performance.md).
func build(bin, pkg string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin+".built", pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %v", pkg, err)
	}
	data, err := os.ReadFile(bin + ".built")
	if err != nil {
		return err
	}
	os.Remove(bin + ".built")
	return os.WriteFile(bin, data, 0o755)
}

// writeDocs replaces the generated section of dir/storms.md and writes
// dir/storms.svg.
func writeDocs(dir, md, chart string) error {
	mdPath := filepath.Join(dir, "storms.md")
	page, err := os.ReadFile(mdPath)
	if err != nil {
		return err
	}
	updated, err := replaceGenerated(string(page), md)
	if err != nil {
		return fmt.Errorf("%s: %v", mdPath, err)
	}
	if err := os.WriteFile(mdPath, []byte(updated), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "storms.svg"), []byte(chart), 0o644)
}
