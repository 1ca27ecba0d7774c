//go:build unix

package testscript_test

import (
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// httpserver [-tls] [-each] ANSWER... serves HTTP on 127.0.0.1 for the rest
// of the script, at $URL (with -tls, HTTPS with a throwaway certificate,
// written to $WORK/cert.pem for the clients to trust): the first request
// gets the first answer, the next the second, and the last one repeats;
// with -each, every path gets the answers in turn (a repository whose every
// file fails once). An answer is
//
//	STATUS[:RETRY-AFTER]  that status (with a Retry-After header when given)
//	STATUS[:RETRY-AFTER]=FILE  the same, with $WORK/FILE as the body (an
//	                      error document, an API's answer)
//	reset                 the connection reset, with no response
//	close                 the connection closed, with no response
//	hang                  no response until the script ends
//	git                   git http-backend serving the repositories in $WORK/git
//	files                 the files under $WORK/files (a GOPROXY, say)
//
// Each request is logged in $WORK/requests.
func httpserver(ts *testscript.TestScript, neg bool, args []string) {
	var tls, each bool
	for len(args) > 0 && (args[0] == "-tls" || args[0] == "-each") {
		tls, each = tls || args[0] == "-tls", each || args[0] == "-each"
		args = args[1:]
	}
	if neg || len(args) == 0 {
		ts.Fatalf("usage: httpserver [-tls] [-each] answer...")
	}
	var answers []handler
	for _, a := range args {
		answers = append(answers, answer(ts, a))
	}
	var mu sync.Mutex
	served := map[string]int{} // requests so far; per path with -each
	requests := workPath(ts, "requests")
	stop := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := ""
		if each {
			key = r.URL.Path
		}
		mu.Lock()
		served[key]++
		n := served[key]
		mu.Unlock()
		i := min(n, len(answers)) - 1
		appendLine(requests, fmt.Sprintf("%s %s -> %s", r.Method, r.URL.Path, strings.Split(args[i], ":")[0]))
		if args[i] == "hang" {
			select {
			case <-stop:
			case <-r.Context().Done():
			}
			return
		}
		answers[i](w, r, n)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // clients that hang up on purpose
	if tls {
		srv.StartTLS()
		cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
		ts.Check(os.WriteFile(workPath(ts, "cert.pem"), cert, 0o644))
	} else {
		srv.Start()
	}
	ts.Defer(func() {
		close(stop)
		srv.Close()
	})
	ts.Setenv("URL", srv.URL+"/")
}

// handler answers the nth request.
type handler func(w http.ResponseWriter, r *http.Request, n int)

// answer returns the handler of one httpserver answer.
func answer(ts *testscript.TestScript, a string) handler {
	switch a {
	case "reset", "close":
		return func(w http.ResponseWriter, r *http.Request, _ int) {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				return
			}
			if tcp, ok := conn.(*net.TCPConn); ok && a == "reset" {
				_ = tcp.SetLinger(0) // close sends RST
			}
			conn.Close()
		}
	case "hang":
		return nil // handled by the server, which knows when the script ends
	case "git":
		out, err := exec.Command("git", "--exec-path").Output()
		if err != nil {
			ts.Fatalf("httpserver git: git --exec-path: %v", err)
		}
		h := &cgi.Handler{
			Path: filepath.Join(strings.TrimSpace(string(out)), "git-http-backend"),
			Env:  []string{"GIT_PROJECT_ROOT=" + workPath(ts, "git"), "GIT_HTTP_EXPORT_ALL=1"},
		}
		return func(w http.ResponseWriter, r *http.Request, _ int) { h.ServeHTTP(w, r) }
	case "files":
		h := http.FileServer(http.Dir(workPath(ts, "files")))
		return func(w http.ResponseWriter, r *http.Request, _ int) { h.ServeHTTP(w, r) }
	}
	a, body, _ := strings.Cut(a, "=")
	s, after, _ := strings.Cut(a, ":")
	status, err := strconv.Atoi(s)
	if err != nil {
		ts.Fatalf("httpserver: bad answer %q", a)
	}
	if body != "" {
		body = workPath(ts, body)
	}
	return func(w http.ResponseWriter, r *http.Request, n int) {
		if after != "" {
			w.Header().Set("Retry-After", after)
		}
		if body == "" {
			w.WriteHeader(status)
			fmt.Fprintf(w, "answer %d: %d\n", n, status)
			return
		}
		b, err := os.ReadFile(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(status)
		w.Write(b)
	}
}

// freeport VAR sets $VAR to a loopback port on which nothing listens: a
// connection to it is refused.
func freeport(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: freeport VAR")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := ln.Addr().(*net.TCPAddr).Port
	ts.Check(ln.Close())
	ts.Setenv(args[0], strconv.Itoa(port))
}

func appendLine(path, line string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}
