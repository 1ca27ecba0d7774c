//go:build unix

package testscript_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// releaseServer is the command
//
//	releaseserver [-badsum] TAG
//
// which serves a fake release TAG of retry on a loopback port, as GitHub
// serves a release's assets: /TAG/retry_VERSION_linux_amd64.tar.gz holds
// the retry on PATH, and /TAG/checksums.txt its SHA-256, wrong with
// -badsum. It sets RELEASES to the base URL and logs each request to
// $WORK/release-requests.
func releaseServer(ts *testscript.TestScript, neg bool, args []string) {
	badSum := len(args) > 0 && args[0] == "-badsum"
	if badSum {
		args = args[1:]
	}
	if neg || len(args) != 1 {
		ts.Fatalf("usage: releaseserver [-badsum] TAG")
	}
	tag := args[0]
	bin, err := exec.LookPath("retry")
	ts.Check(err)
	exe, err := os.ReadFile(bin)
	ts.Check(err)
	name := fmt.Sprintf("retry_%s_linux_amd64.tar.gz", strings.TrimPrefix(tag, "v"))
	archive := tarGz(ts, map[string][]byte{"retry": exe, "README.md": []byte("retry\n")})
	sum := sha256.Sum256(archive)
	if badSum {
		sum[0] ^= 0xff
	}
	files := map[string][]byte{
		"/" + tag + "/" + name:       archive,
		"/" + tag + "/checksums.txt": fmt.Appendf(nil, "%x  %s\n%x  retry_%s_darwin_arm64.tar.gz\n", sum, name, sha256.Sum256(nil), strings.TrimPrefix(tag, "v")),
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	log := ts.MkAbs("release-requests")
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		appendLine(log, r.Method+" "+r.URL.Path)
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(body)
	})}
	go srv.Serve(ln)
	ts.Defer(func() { srv.Close() })
	ts.Setenv("RELEASES", "http://"+ln.Addr().String())
}

// tarGz returns a gzipped tar archive of files, each mode 0755.
func tarGz(ts *testscript.TestScript, files map[string][]byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range files {
		ts.Check(tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(name), Mode: 0o755, Size: int64(len(body)), Typeflag: tar.TypeReg}))
		_, err := tw.Write(body)
		ts.Check(err)
	}
	ts.Check(tw.Close())
	ts.Check(zw.Close())
	return buf.Bytes()
}
