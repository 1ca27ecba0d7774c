//go:build unix

package testscript_test

import (
	"bytes"
	"net"
	"net/http"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// bodyserver BYTES serves HTTP on 127.0.0.1 for the rest of the script,
// at $BIG_URL: every request gets 200 and a body of BYTES bytes, more
// than a pipe holds, so that a client whose reader has gone sees its
// write fail. Each request is logged in $WORK/body-requests.
func bodyserver(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: bodyserver bytes")
	}
	size, err := strconv.Atoi(args[0])
	if err != nil || size < 0 {
		ts.Fatalf("bodyserver: bad size %q", args[0])
	}
	body := bytes.Repeat([]byte("0123456789abcde\n"), size/16+1)[:size]
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	log := ts.MkAbs("body-requests")
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		appendLine(log, r.Method+" "+r.URL.Path)
		w.Header().Set("Content-Length", strconv.Itoa(size))
		_, _ = w.Write(body)
	})}
	go srv.Serve(ln)
	ts.Defer(func() { srv.Close() })
	ts.Setenv("BIG_URL", "http://"+ln.Addr().String()+"/big")
}
