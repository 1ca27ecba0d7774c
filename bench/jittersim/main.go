// Command jittersim is the evidence for retry's default backoff policy:
// it simulates clients contending for one resource under optimistic
// concurrency, as in the AWS Architecture Blog post "Exponential Backoff
// And Jitter", and compares no backoff, exponential backoff without
// jitter, and equal, full and decorrelated jitter by total calls and time
// to completion. The exponential policies are retry's own runner/backoff.
// It is a simulation for the docs, not API.
//
// Run without flags it prints the results as Markdown tables. With -docs
// it rewrites the generated section of DIR/jitter.md and DIR/jitter.svg:
//
//	go run ./bench/jittersim -docs docs
//
// The results depend only on the flags: the same seed gives the same
// output on every platform.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	if err := mainErr(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "jittersim: %v\n", err)
		os.Exit(1)
	}
}

func mainErr(args []string, stdout io.Writer) error {
	cfg := defaultConfig()
	fs := flag.NewFlagSet("jittersim", flag.ContinueOnError)
	fs.Uint64Var(&cfg.seed, "seed", cfg.seed, "random seed")
	fs.IntVar(&cfg.races, "races", cfg.races, "races per strategy and number of clients")
	docs := fs.String("docs", "", "rewrite `DIR`/jitter.md's generated section and DIR/jitter.svg")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if cfg.races < 1 {
		return errors.New("-races: must be at least 1")
	}
	res := run(cfg)
	if *docs == "" {
		_, err := io.WriteString(stdout, markdown(res))
		return err
	}
	return writeDocs(*docs, res)
}

// writeDocs replaces the generated section of dir/jitter.md and writes
// dir/jitter.svg.
func writeDocs(dir string, res results) error {
	mdPath := filepath.Join(dir, "jitter.md")
	page, err := os.ReadFile(mdPath)
	if err != nil {
		return err
	}
	updated, err := replaceGenerated(string(page), markdown(res))
	if err != nil {
		return fmt.Errorf("%s: %v", mdPath, err)
	}
	if err := os.WriteFile(mdPath, []byte(updated), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "jitter.svg"), []byte(svg(res)), 0o644)
}
