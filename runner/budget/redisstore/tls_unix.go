//go:build unix

package redisstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/b0a38808/retry/internal/proc"
)

// tlsSetup is how a's TLS connections are made: by the helper program
// at this path.
type tlsSetup struct{ helper string }

// LoadTLS finds the TLS helper (HelperName), beside the running program
// (its symbolic links resolved) or else on PATH, and has it read the
// files of the TLS parameters, so that a missing helper or a bad file is
// found before anything runs. The helper makes a's connections: TLS 1.2
// or later, the CA of cacert= instead of the system's roots, and the
// client certificate of cert= and key=, sent whenever the server asks
// for one. Open calls it when it was not called.
func (a *Address) LoadTLS() error {
	if !a.TLS || a.tls != nil {
		return nil
	}
	helper, err := findHelper()
	if err != nil {
		scheme := "rediss"
		if a.Kind == Sentinel {
			scheme = "rediss+sentinel"
		}
		return fmt.Errorf("%s:// %w", scheme, ErrNoHelper)
	}
	if args := a.fileArgs(); len(args) > 0 {
		cmd := exec.Command(helper, append([]string{"check"}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := proc.StartHelper(cmd)
		if err == nil {
			err = cmd.Wait()
		}
		if err != nil {
			if why := firstLine(stderr.String()); why != "" {
				return errors.New(why)
			}
			return fmt.Errorf("%s check: %v", HelperName, err)
		}
	}
	a.tls = &tlsSetup{helper}
	return nil
}

// fileArgs returns the helper's flags of the files a names.
func (a *Address) fileArgs() []string {
	var args []string
	for _, f := range []struct{ flag, file string }{{"--cacert", a.CACert}, {"--cert", a.Cert}, {"--key", a.Key}} {
		if f.file != "" {
			args = append(args, f.flag, f.file)
		}
	}
	return args
}

// findHelper returns the path of the TLS helper: beside the running
// program, else on PATH.
func findHelper() (string, error) {
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), HelperName)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return exec.LookPath(HelperName)
}

// firstLine returns s's first line, trimmed.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(s)
}

// connectTLS opens a TLS connection to node on network through the
// helper, within ctx.
func (cl *client) connectTLS(ctx context.Context, network, node string) (net.Conn, error) {
	a := &cl.addr
	if a.tls == nil {
		if err := a.LoadTLS(); err != nil {
			return nil, err
		}
	}
	args := append([]string{"connect", "--network", network, "--address", node, "--server-name", a.serverName(node)}, a.fileArgs()...)
	if d, ok := ctx.Deadline(); ok {
		left := time.Until(d)
		if left <= 0 {
			return nil, ctx.Err()
		}
		args = append(args, "--timeout", left.String())
	}
	return startHelper(ctx, a.tls.helper, args)
}

// refused returns why the server closed nc, a connection that failed
// with err at its first exchange. The helper has said so already: a
// helper connection's errors are the causes it names.
func refused(_ net.Conn, err error) error { return err }

// tlsCause says why a TLS connection failed: a helper connection's
// errors say so already.
func tlsCause(err error) error { return err }
