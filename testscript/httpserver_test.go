//go:build unix

package testscript_test

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/rogpeppe/go-internal/testscript"
)

// httpserver STATUS[:RETRY-AFTER]... serves HTTP on 127.0.0.1 for the rest
// of the script, at $URL: the first request gets the first status (with a
// Retry-After header when given), the next the second, and the last one
// repeats. Each request is logged in $WORK/requests.
func httpserver(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: httpserver status[:retry-after]...")
	}
	type answer struct {
		status     int
		retryAfter string
	}
	var answers []answer
	for _, a := range args {
		s, after, _ := strings.Cut(a, ":")
		status, err := strconv.Atoi(s)
		if err != nil {
			ts.Fatalf("httpserver: bad status %q", a)
		}
		answers = append(answers, answer{status, after})
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	var served atomic.Int64
	log := ts.MkAbs("requests")
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(served.Add(1))
		a := answers[min(n, len(answers))-1]
		if a.retryAfter != "" {
			w.Header().Set("Retry-After", a.retryAfter)
		}
		w.WriteHeader(a.status)
		fmt.Fprintf(w, "answer %d: %d\n", n, a.status)
		appendLine(log, fmt.Sprintf("%s %s -> %d", r.Method, r.URL.Path, a.status))
	})}
	go srv.Serve(ln)
	ts.Defer(func() { srv.Close() })
	ts.Setenv("URL", "http://"+ln.Addr().String()+"/")
}

func appendLine(path, line string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}
