//go:build unix

package testscript_test

import (
	"archive/zip"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// serverCmds returns the commands that start real servers on loopback
// ports for the rest of a script, for the presets' tools to fail against:
//
//	gitdaemon                 git daemon serving $WORK/git at $GITURL ($GITPORT)
//	tcpgate VAR N PORT        a port, in $VAR, whose first N connections are
//	                          closed after the client's first bytes, and the
//	                          rest passed to PORT
//	sshd                      sshd with a throwaway host key; $SSHPORT, and
//	                          $WORK/ssh/config for the client (key, known host)
//	modproxy MODULE VERSION DIR  a GOPROXY tree in $WORK/files for the
//	                          module in DIR (served by httpserver files)
func serverCmds() map[string]func(*testscript.TestScript, bool, []string) {
	return map[string]func(*testscript.TestScript, bool, []string){
		"gitdaemon": gitdaemon,
		"tcpgate":   tcpgate,
		"sshd":      sshd,
		"modproxy":  modproxy,
		"freeport":  freeport,
	}
}

// serverConditions answers the scripts' conditions about the machine:
// [sshd] (an sshd binary is there), [locale:NAME] (the locale is
// installed, as locale -a lists it), [translation:LANG:DOMAIN] (a
// program's messages are translated to LANG, as for wget and git; DOMAIN
// may be a pattern, as libpq5-* for any version of libpq) and [tmpfs] (a
// script can mount a tmpfs of its own).
func serverConditions(cond string) (bool, error) {
	switch {
	case cond == "sshd":
		return sshdPath() != "", nil
	case cond == "tmpfs":
		return tmpfsMountable(), nil
	case strings.HasPrefix(cond, "translation:"):
		lang, domain, _ := strings.Cut(strings.TrimPrefix(cond, "translation:"), ":")
		found, _ := filepath.Glob(filepath.Join("/usr/share/locale", lang, "LC_MESSAGES", domain+".mo"))
		return len(found) > 0, nil
	case strings.HasPrefix(cond, "locale:"):
		out, err := exec.Command("locale", "-a").Output()
		if err != nil {
			return false, nil
		}
		want := normalLocale(strings.TrimPrefix(cond, "locale:"))
		for _, l := range strings.Fields(string(out)) {
			if normalLocale(l) == want {
				return true, nil
			}
		}
		return false, nil
	}
	return false, os.ErrNotExist
}

// tmpfsMountable reports whether a script can mount a small tmpfs of its
// own, to fill a $TMPDIR for real: unshare(1) from util-linux, and user
// namespaces.
var tmpfsMountable = sync.OnceValue(func() bool {
	return exec.Command("unshare", "-rm", "sh", "-c", `d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d"; s=$?; umount "$d" 2>/dev/null; rmdir "$d"; exit $s`).Run() == nil
})

// normalLocale spells a locale name as locale -a does: de_DE.utf8.
func normalLocale(s string) string {
	name, charset, _ := strings.Cut(s, ".")
	return name + "." + strings.ToLower(strings.ReplaceAll(charset, "-", ""))
}

func sshdPath() string {
	if p, err := exec.LookPath("sshd"); err == nil {
		return p
	}
	for _, p := range []string{"/usr/sbin/sshd", "/usr/local/sbin/sshd"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// workPath returns the path of name in $WORK, wherever the script has
// gone with cd.
func workPath(ts *testscript.TestScript, name string) string {
	return filepath.Join(ts.Getenv("WORK"), name)
}

// background starts cmd for the rest of the script.
func background(ts *testscript.TestScript, cmd *exec.Cmd) {
	log, err := os.Create(workPath(ts, filepath.Base(cmd.Path)+".log"))
	ts.Check(err)
	cmd.Stdout, cmd.Stderr = log, log
	ts.Check(cmd.Start())
	ts.Defer(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		log.Close()
	})
}

// listenPort returns a free loopback port.
func listenPort(ts *testscript.TestScript) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// awaitPort waits up to 10s for a server to accept connections on port.
func awaitPort(ts *testscript.TestScript, port int, what string) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s did not listen on port %d: %v", what, port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func gitdaemon(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: gitdaemon")
	}
	port := listenPort(ts)
	root := workPath(ts, "git")
	background(ts, exec.Command("git", "daemon", "--reuseaddr", "--export-all", "--listen=127.0.0.1",
		"--port="+strconv.Itoa(port), "--base-path="+root, root))
	awaitPort(ts, port, "git daemon")
	ts.Setenv("GITPORT", strconv.Itoa(port))
	ts.Setenv("GITURL", "git://127.0.0.1:"+strconv.Itoa(port)+"/")
}

func tcpgate(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: tcpgate VAR N PORT")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	target := "127.0.0.1:" + args[2]
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	ts.Defer(func() { ln.Close() })
	var seen atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if seen.Add(1) <= int64(n) {
				// As a server that refuses the request: read it, close.
				go func() {
					_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
					_, _ = c.Read(make([]byte, 4096))
					c.Close()
				}()
				continue
			}
			go pass(c, target)
		}
	}()
	ts.Setenv(args[0], strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
}

// pass copies between c and a new connection to target until either ends.
func pass(c net.Conn, target string) {
	defer c.Close()
	t, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer t.Close()
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(t, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, t); done <- struct{}{} }()
	<-done
}

func sshd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: sshd")
	}
	dir := ts.MkAbs("ssh")
	ts.Check(os.MkdirAll(dir, 0o700))
	for _, key := range []string{"host", "id"} {
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", key, "-f", filepath.Join(dir, key)).CombinedOutput()
		if err != nil {
			ts.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	pub := func(key string) string {
		b, err := os.ReadFile(filepath.Join(dir, key+".pub"))
		ts.Check(err)
		return strings.TrimSpace(string(b))
	}
	ts.Check(os.WriteFile(filepath.Join(dir, "authorized_keys"), []byte(pub("id")+"\n"), 0o600))
	port := listenPort(ts)
	me, err := user.Current()
	ts.Check(err)
	config := strings.Join([]string{
		"Port " + strconv.Itoa(port),
		"ListenAddress 127.0.0.1",
		"HostKey " + filepath.Join(dir, "host"),
		"AuthorizedKeysFile " + filepath.Join(dir, "authorized_keys"),
		"PidFile " + filepath.Join(dir, "sshd.pid"),
		"StrictModes no",
		"UsePAM no",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"AllowUsers " + me.Username,
		"Subsystem sftp internal-sftp",
		"",
	}, "\n")
	ts.Check(os.WriteFile(filepath.Join(dir, "sshd_config"), []byte(config), 0o600))
	if os.Geteuid() == 0 {
		// Privilege separation wants its empty directory.
		_ = os.MkdirAll("/run/sshd", 0o755)
	}
	background(ts, exec.Command(sshdPath(), "-D", "-e", "-f", filepath.Join(dir, "sshd_config")))
	awaitPort(ts, port, "sshd")
	known := "[127.0.0.1]:* " + pub("host") + "\n"
	ts.Check(os.WriteFile(filepath.Join(dir, "known_hosts"), []byte(known), 0o600))
	client := strings.Join([]string{
		"Host *",
		"  User " + me.Username,
		"  IdentityFile " + filepath.Join(dir, "id"),
		"  IdentitiesOnly yes",
		"  UserKnownHostsFile " + filepath.Join(dir, "known_hosts"),
		"  StrictHostKeyChecking yes",
		"  BatchMode yes",
		"  ConnectTimeout 10",
		"",
	}, "\n")
	ts.Check(os.WriteFile(filepath.Join(dir, "config"), []byte(client), 0o600))
	ts.Setenv("SSHPORT", strconv.Itoa(port))
}

func modproxy(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: modproxy MODULE VERSION DIR")
	}
	mod, version, src := args[0], args[1], ts.MkAbs(args[2])
	dir := filepath.Join(workPath(ts, "files"), mod, "@v")
	ts.Check(os.MkdirAll(dir, 0o755))
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	ts.Check(err)
	write := func(name string, data []byte) { ts.Check(os.WriteFile(filepath.Join(dir, name), data, 0o644)) }
	write("list", []byte(version+"\n"))
	write(version+".info", []byte(`{"Version":"`+version+`","Time":"2026-01-01T00:00:00Z"}`))
	write(version+".mod", gomod)
	f, err := os.Create(filepath.Join(dir, version+".zip"))
	ts.Check(err)
	z := zip.NewWriter(f)
	ts.Check(filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		w, err := z.Create(mod + "@" + version + "/" + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}))
	ts.Check(z.Close())
	ts.Check(f.Close())
}
