package match_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"testing"

	"github.com/b0a38808/retry/runner/classify"
	"github.com/b0a38808/retry/runner/match"
)

// corpus returns size bytes of one kind of output, with no line that a
// preset or the three rules below match: log, build, base64, or mixed, 1
// MiB of each of the three in turn.
func corpus(kind string, size int) []byte {
	if kind == "mixed" {
		const block = 1 << 20
		parts := [][]byte{corpus("log", size), corpus("build", size), corpus("base64", size)}
		out := make([]byte, 0, size+2*block)
		for i := 0; len(out) < size; i += block {
			for _, p := range parts {
				out = append(out, p[i:i+block]...)
			}
		}
		return out[:size]
	}
	var b bytes.Buffer
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; b.Len() < size; i++ {
		switch kind {
		case "log":
			switch {
			case i%50 == 0:
				b.WriteString("    at com.example.service.Handler.process(Handler.java:123) caused by upstream latency\n")
			case i%7 == 0:
				fmt.Fprintf(&b, "2026-11-30T07:00:%02d.%03dZ WARN cache miss key=user:%d:profile backend=redis-%d retries=0\n", i%60, i%1000, i*31, i%5)
			default:
				fmt.Fprintf(&b, "2026-11-30T07:00:%02d.%03dZ INFO request id=%d path=/api/v1/items/%d status=200 bytes=%d took=%dms\n",
					i%60, i%1000, i, i*7, i*13%9000, i%97)
			}
		case "build":
			pkg := [...]string{"internal/abi", "runtime", "net/http", "encoding/json", "github.com/spf13/cobra", "golang.org/x/sys/unix"}[i%6]
			switch i % 4 {
			case 0:
				fmt.Fprintf(&b, "mkdir -p $WORK/b%03d/\n", i%500)
			case 1:
				fmt.Fprintf(&b, "cat >/tmp/go-build%d/b%03d/importcfg << 'EOF' # internal\npackagefile %s=/root/.cache/go-build/%02x/%x-d\nEOF\n", i, i%500, pkg, i%256, i*2654435761)
			case 2:
				fmt.Fprintf(&b, "cd /work/src/%s\n/usr/lib/go/pkg/tool/linux_amd64/compile -o $WORK/b%03d/_pkg_.a -trimpath \"$WORK/b%03d=>\" -p %s -lang=go1.26 -complete -buildid %x/%x -goversion go1.26.8 -c=2 -nolocalimports -importcfg $WORK/b%03d/importcfg -pack ./a.go ./b.go\n", pkg, i%500, i%500, pkg, i, i*7, i%500)
			default:
				fmt.Fprintf(&b, "=== RUN   TestMatcherRules/case_%d\n--- PASS: TestMatcherRules/case_%d (0.00s)\n", i, i)
			}
		case "base64":
			raw := make([]byte, 57)
			for j := range raw {
				raw[j] = byte(r.Uint32())
			}
			b.WriteString(base64.StdEncoding.EncodeToString(raw))
			b.WriteByte('\n')
		}
	}
	return b.Bytes()[:size]
}

// BenchmarkMatcherCorpus feeds each corpus, in 128 KiB writes as retry's
// copy loop makes them, to a matcher under each rule set: bytes/s, the
// CPU time of a byte (cpu-ns/B, steadier than bytes/s on a shared host;
// Linux only) and allocations per write (B/op and allocs/op are per write
// here).
func BenchmarkMatcherCorpus(b *testing.B) {
	type set struct {
		name string
		w    match.Config
	}
	hint := func(w match.Config) match.Config {
		w.Hint, w.ParseHint = presetHint(), parseRetryAfter
		return w
	}
	retryIf := func(exprs ...string) match.Config {
		return hint(match.Config{RetryIf: match.MustPatterns(b, exprs...)})
	}
	sets := []set{
		{"none", hint(match.Config{})},
		{"three", retryIf("connection refused", "(?i)timed? ?out", "HTTP/[0-9.]+ 50[234] ")},
		{"noliteral", retryIf(`^\d+$`)}, // every line goes to the regexp
	}
	all := classify.Rules{Hints: true}
	for _, p := range classify.Presets() {
		r := classify.Rules{Hints: true}
		if err := r.AddPreset(p); err != nil {
			b.Fatal(err)
		}
		all.AddPreset(p)
		sets = append(sets, set{p.Name, hint(match.Config{StopIf: r.StopIf, RetryIf: r.RetryIf, FailIf: r.FailIf})})
	}
	sets = append(sets, set{"all", hint(match.Config{StopIf: all.StopIf, RetryIf: all.RetryIf, FailIf: all.FailIf})})
	const write = 128 << 10
	for _, kind := range []string{"log", "build", "base64", "mixed"} {
		data := corpus(kind, 8<<20)
		for _, set := range sets {
			b.Run(kind+"/"+set.name, func(b *testing.B) {
				runtime.LockOSThread() // for threadCPU
				defer runtime.UnlockOSThread()
				m := match.New(set.w)
				w := m.Writer("stderr")
				w.Write(data[:write]) // compile the search
				b.SetBytes(write)
				b.ReportAllocs()
				i, n, cpu := 0, 0, threadCPU()
				for b.Loop() {
					if i+write > len(data) {
						i = 0
					}
					w.Write(data[i : i+write])
					i += write
					n++
				}
				if cpu >= 0 {
					b.ReportMetric(float64(threadCPU()-cpu)/float64(n*write), "cpu-ns/B")
				}
				out := m.Output()
				for _, found := range []*match.Match{out.StopIf, out.RetryIf, out.FailIf} {
					if found != nil {
						b.Fatalf("%s matched %q", found.Pattern, found.Line)
					}
				}
			})
		}
	}
}

// presetPatterns returns the patterns of every preset's rules, as
// classify makes them: each takes its strings from the table reduced at
// build time, and each has its expression compiled.
func presetPatterns(b *testing.B) []*match.Pattern {
	var r classify.Rules
	for _, p := range classify.Presets() {
		if err := r.AddPreset(p); err != nil {
			b.Fatal(err)
		}
	}
	pats := slices.Concat(r.StopIf, r.RetryIf, r.FailIf)
	for _, p := range pats {
		p.Groups()
	}
	return pats
}

// BenchmarkCompileSearch measures what compiling the literal search of all
// presets together costs: reducing every expression to literals (which
// the table made at build time spares a preset), and the search a matcher
// builds on its first line (with the Retry-After hint's expression,
// compiled then too), and what a later attempt of the same Rules pays,
// which shares the first one's search; first is what the first line costs
// with Patterns never used before.
func BenchmarkCompileSearch(b *testing.B) {
	pats, hint := presetPatterns(b), presetHint()
	b.Run("literals", func(b *testing.B) {
		for b.Loop() {
			for _, p := range pats {
				match.Reduce(p.String())
			}
		}
	})
	b.Run("first", func(b *testing.B) { // the first line, with Patterns new each time
		line := []byte("first line\n")
		fresh := make([]*match.Pattern, len(pats))
		for b.Loop() {
			for i, p := range pats { // the compiled expression kept, nothing reduced
				fresh[i] = match.Fresh(p)
			}
			m := match.New(match.Config{RetryIf: fresh, Hint: match.Fresh(hint), ParseHint: parseRetryAfter})
			m.Writer("stderr").Write(line)
		}
	})
	b.Run("matcher", func(b *testing.B) {
		line := []byte("first line\n")
		for b.Loop() {
			m := match.New(match.Config{RetryIf: pats, Hint: hint, ParseHint: parseRetryAfter})
			m.Writer("stderr").Write(line)
		}
	})
	b.Run("shared", func(b *testing.B) { // a later attempt of the same rules
		r := classify.Rules{RetryIf: pats, Hints: true}
		line := []byte("first line\n")
		r.NewMatcher(nil).Writer("stderr").Write(line)
		for b.Loop() {
			r.NewMatcher(nil).Writer("stderr").Write(line)
		}
	})
	b.Run("regexp", func(b *testing.B) { // for scale: the expressions themselves
		for b.Loop() {
			for _, p := range pats {
				regexp.MustCompile(p.String())
			}
		}
	})
}

// BenchmarkAllPresets measures the matcher under every preset at once,
// on the same 8 MiB of log lines as BenchmarkMatcher, none of which
// matches, in 32 KiB writes.
func BenchmarkAllPresets(b *testing.B) {
	r := &classify.Rules{Hints: true}
	for _, p := range classify.Presets() {
		if err := r.AddPreset(p); err != nil {
			b.Fatal(err)
		}
	}
	data := match.BenchOutput(8 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		m := r.NewMatcher(nil)
		w := m.Writer("stderr")
		for i := 0; i < len(data); i += 32 << 10 {
			w.Write(data[i:min(i+32<<10, len(data))])
		}
		if out := m.Output(); out.RetryIf != nil || out.StopIf != nil {
			b.Fatalf("benchmark output matched: %+v", out)
		}
	}
}
