//go:build unix

package testscript_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// deployServerCmds returns the commands that run real servers for the
// scripts of the deploy presets (rsync, psql, mysql). Each server listens
// on a free loopback port, keeps its data in $WORK, and is stopped when the
// script ends.
func deployServerCmds() map[string]func(*testscript.TestScript, bool, []string) {
	return map[string]func(*testscript.TestScript, bool, []string){
		"waitfor":       waitfor,
		"pgserver":      pgserver,
		"mariadbserver": mariadbServer,
		"rsyncd":        rsyncd,
	}
}

// anyCondition answers a condition with the first of conds that knows it
// (the others answer os.ErrNotExist).
func anyCondition(conds ...func(string) (bool, error)) func(string) (bool, error) {
	return func(cond string) (bool, error) {
		for _, c := range conds {
			if ok, err := c(cond); !errors.Is(err, os.ErrNotExist) {
				return ok, err
			}
		}
		return false, fmt.Errorf("unknown condition %q", cond)
	}
}

// deployCondition answers [pg] (PostgreSQL's initdb and pg_ctl are
// installed and can run here) and [mariadb] (mariadbd and
// mariadb-install-db are).
func deployCondition(cond string) (bool, error) {
	switch cond {
	case "pg":
		_, err := pgBinDir()
		if err == nil && os.Geteuid() == 0 {
			_, _, err = unprivileged()
		}
		return err == nil, nil
	case "mariadb":
		for _, name := range []string{"mariadbd", "mariadb-install-db"} {
			if _, err := lookPathSbin(name); err != nil {
				return false, nil
			}
		}
		return true, nil
	}
	return false, os.ErrNotExist
}

// freePort returns a TCP port on 127.0.0.1 that nothing listens on.
func freePort(ts *testscript.TestScript) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// waitfor COMMAND [ARG...] runs COMMAND every 50ms until it succeeds, for
// at most 20 seconds: a server that is starting, a client that is
// connecting.
func waitfor(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: waitfor command [arg...]")
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		err := ts.Exec(args[0], args[1:]...)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("waitfor %s: still failing after 20s: %v", strings.Join(args, " "), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lookPathSbin finds a program on PATH or in the sbin directories, which
// a user's PATH may lack (mariadbd lives in /usr/sbin).
func lookPathSbin(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, dir := range []string{"/usr/sbin", "/usr/local/sbin", "/sbin"} {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found", name)
}

// waitLoop is shell code that runs probe every 50ms until it succeeds, and
// fails after 20 seconds.
func waitLoop(probe string) string {
	return "i=0\nuntil " + probe + " >/dev/null 2>&1; do\n\ti=$((i+1)); [ $i -lt 400 ] || exit 1; sleep 0.05\ndone\n"
}

// writeScript writes an executable shell script.
func writeScript(ts *testscript.TestScript, path, body string) {
	ts.Check(os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755))
}

// shellQuote quotes s for /bin/sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// unprivileged returns the user servers that refuse root run as.
func unprivileged() (uid, gid int, err error) {
	if _, err := exec.LookPath("setpriv"); err != nil {
		return 0, 0, fmt.Errorf("setpriv(1) is not installed")
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return 0, 0, err
	}
	uid, _ = strconv.Atoi(u.Uid)
	gid, _ = strconv.Atoi(u.Gid)
	return uid, gid, nil
}

// openWork lets another user reach $WORK: the directories testscript made
// for this script become searchable (not readable) by all.
func openWork(ts *testscript.TestScript) {
	work := ts.Getenv("WORK")
	ts.Check(os.Chmod(work, 0o711))
	ts.Check(os.Chmod(filepath.Dir(work), 0o711))
}

// pgBinDir finds PostgreSQL's server programs: on PATH, or where Debian
// installs them (/usr/lib/postgresql/VERSION/bin), the newest first.
func pgBinDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int {
		va, _ := strconv.Atoi(filepath.Base(filepath.Dir(a)))
		vb, _ := strconv.Atoi(filepath.Base(filepath.Dir(b)))
		return vb - va
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("initdb and pg_ctl not found")
}

// pgserver [SETTING=VALUE...] creates a PostgreSQL cluster in $WORK/pg
// (superuser postgres, password "secret" over TCP, trust on the socket,
// no fsync) and writes $PGCTL, a script that runs pg_ctl on it with the
// settings given, listening on 127.0.0.1:$PGPORT with its socket in
// $WORK/pg. It sets PGHOST, PGPORT, PGUSER and PGDATABASE for psql, and
// does not start the server: `exec $PGCTL start -w` does. initdb refuses
// to run as root, so as root the server runs as nobody. The server is
// stopped (immediately) when the script ends.
func pgserver(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("usage: pgserver [setting=value...]")
	}
	bin, err := pgBinDir()
	ts.Check(err)
	dir := ts.MkAbs("pg")
	ts.Check(os.MkdirAll(dir, 0o700))
	as := ""
	if os.Geteuid() == 0 {
		uid, gid, err := unprivileged()
		ts.Check(err)
		openWork(ts)
		ts.Check(os.Chown(dir, uid, gid))
		as = fmt.Sprintf("setpriv --reuid=%d --regid=%d --clear-groups ", uid, gid)
	}
	pw := filepath.Join(dir, "pw")
	ts.Check(os.WriteFile(pw, []byte("secret\n"), 0o644))
	port := strconv.Itoa(freePort(ts))
	data := filepath.Join(dir, "data")
	initdb := exec.Command("sh", "-c", as+shellQuote(filepath.Join(bin, "initdb"))+
		" -D "+shellQuote(data)+" -U postgres --pwfile="+shellQuote(pw)+
		" --auth-local=trust --auth-host=scram-sha-256 --no-sync --locale=C -E UTF8")
	initdb.Env = append(os.Environ(), "LC_ALL=C", "HOME="+dir)
	if out, err := initdb.CombinedOutput(); err != nil {
		ts.Fatalf("initdb: %v\n%s", err, out)
	}
	opts := []string{"-p " + port, "-k " + dir, "-c listen_addresses=127.0.0.1", "-c fsync=off", "-c lc_messages=C"}
	for _, a := range args {
		opts = append(opts, "-c "+a)
	}
	ctl := filepath.Join(dir, "ctl")
	writeScript(ts, ctl, "exec "+as+shellQuote(filepath.Join(bin, "pg_ctl"))+" -D "+shellQuote(data)+
		" -l "+shellQuote(filepath.Join(dir, "log"))+" -o "+shellQuote(strings.Join(opts, " "))+" \"$@\"\n")
	ts.Defer(func() {
		exec.Command(ctl, "stop", "-m", "immediate").Run()
	})
	ts.Setenv("PGCTL", ctl)
	ts.Setenv("PGHOST", "127.0.0.1")
	ts.Setenv("PGPORT", port)
	ts.Setenv("PGUSER", "postgres")
	ts.Setenv("PGDATABASE", "postgres")
}

// mariadbServer [OPTION...] creates a MariaDB data directory in
// $WORK/mariadb (root@localhost without a password) and starts mariadbd on
// 127.0.0.1:$MYSQL_PORT, its socket at $MYSQL_SOCK, with the options given
// (--max-connections=10). $MYSQLD_START starts it again after
// `exec mariadb-admin ... shutdown`; without -nostart the command starts it
// and waits until it answers. The server is killed when the script ends.
func mariadbServer(ts *testscript.TestScript, neg bool, args []string) {
	start := true
	if len(args) > 0 && args[0] == "-nostart" {
		start, args = false, args[1:]
	}
	if neg {
		ts.Fatalf("usage: mariadbserver [-nostart] [option...]")
	}
	mysqld, err := lookPathSbin("mariadbd")
	ts.Check(err)
	install, err := lookPathSbin("mariadb-install-db")
	ts.Check(err)
	dir := ts.MkAbs("mariadb")
	ts.Check(os.MkdirAll(dir, 0o700))
	data := filepath.Join(dir, "data")
	cmd := exec.Command(install, "--no-defaults", "--datadir="+data, "--auth-root-authentication-method=normal",
		"--skip-test-db", "--user="+currentUser())
	if out, err := cmd.CombinedOutput(); err != nil {
		ts.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	port := strconv.Itoa(freePort(ts))
	sock := filepath.Join(dir, "sock")
	pid := filepath.Join(dir, "pid")
	line := []string{mysqld, "--no-defaults", "--user=" + currentUser(), "--datadir=" + data, "--socket=" + sock,
		"--port=" + port, "--bind-address=127.0.0.1", "--skip-networking=0", "--pid-file=" + pid,
		"--innodb-buffer-pool-size=8M", "--skip-log-bin", "--lc-messages=en_US", "--log-error=" + filepath.Join(dir, "err.log")}
	line = append(line, args...)
	quoted := make([]string, len(line))
	for i, w := range line {
		quoted[i] = shellQuote(w)
	}
	startScript := filepath.Join(dir, "start")
	writeScript(ts, startScript, strings.Join(quoted, " ")+" >/dev/null 2>&1 </dev/null &\n"+
		waitLoop("mariadb-admin --no-defaults -S "+shellQuote(sock)+" -u root --silent ping"))
	ts.Defer(func() { stopPidFile(pid, syscall.SIGKILL) })
	ts.Setenv("MYSQL_PORT", port)
	ts.Setenv("MYSQL_SOCK", sock)
	ts.Setenv("MYSQLD_START", startScript)
	if start {
		ts.Check(exec.Command(startScript).Run())
	}
}

func currentUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "root"
}

// rsyncd [-nostart] [PARAM=VALUE...] writes a daemon configuration with one
// read-only module "data" ($WORK/rsync/data), the parameters given added to
// it ("max connections=1"), and starts `rsync --daemon` on
// 127.0.0.1:$RSYNC_PORT, logging to $WORK/rsync/log; $RSYNCD_START starts
// it (again). Another rsyncd line replaces the daemon. The daemon is killed
// when the script ends.
func rsyncd(ts *testscript.TestScript, neg bool, args []string) {
	start := true
	if len(args) > 0 && args[0] == "-nostart" {
		start, args = false, args[1:]
	}
	if neg {
		ts.Fatalf("usage: rsyncd [-nostart] [param=value...]")
	}
	dir := ts.MkAbs("rsync")
	ts.Check(os.MkdirAll(filepath.Join(dir, "data"), 0o755))
	pid := filepath.Join(dir, "pid")
	stopPidFile(pid, syscall.SIGTERM) // a daemon of an earlier rsyncd line
	os.Remove(filepath.Join(dir, "log"))
	conf := fmt.Sprintf("pid file = %s\nlock file = %s\nuse chroot = no\n[data]\npath = %s\nread only = yes\n",
		pid, filepath.Join(dir, "lock"), filepath.Join(dir, "data"))
	if os.Geteuid() == 0 {
		conf = "uid = root\ngid = root\n" + conf
	}
	conf += strings.Join(args, "\n") + "\n"
	ts.Check(os.WriteFile(filepath.Join(dir, "rsyncd.conf"), []byte(conf), 0o644))
	port := strconv.Itoa(freePort(ts))
	startScript := filepath.Join(dir, "start")
	writeScript(ts, startScript, "rsync --daemon --address=127.0.0.1 --port="+port+
		" --config="+shellQuote(filepath.Join(dir, "rsyncd.conf"))+" --log-file="+shellQuote(filepath.Join(dir, "log"))+"\n"+
		waitLoop("rsync rsync://127.0.0.1:"+port+"/"))
	ts.Defer(func() { stopPidFile(pid, syscall.SIGTERM) })
	ts.Setenv("RSYNC_PORT", port)
	ts.Setenv("RSYNCD_START", startScript)
	if start {
		ts.Check(exec.Command(startScript).Run())
	}
}

// onAttemptMain is the program `onattempt N ACTION COMMAND [ARG...]`: on
// attempt N of the retry it runs under (RETRY_ATTEMPT), it first runs ACTION
// with /bin/sh, what changed between two attempts (a server came up, a
// slot was freed); then it becomes COMMAND, the real tool.
func onAttemptMain() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: onattempt n action command [arg...]")
		os.Exit(2)
	}
	if os.Getenv("RETRY_ATTEMPT") == os.Args[1] {
		action := exec.Command("/bin/sh", "-c", os.Args[2])
		if out, err := action.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "onattempt: %s: %v\n%s", os.Args[2], err, out)
			os.Exit(2)
		}
	}
	path, err := exec.LookPath(os.Args[3])
	if err == nil {
		err = syscall.Exec(path, os.Args[3:], os.Environ())
	}
	fmt.Fprintf(os.Stderr, "onattempt: %v\n", err)
	os.Exit(127)
}

// stopPidFile sends sig to the process whose pid the file holds, waits up
// to two seconds for it to end, and removes the file.
func stopPidFile(file string, sig syscall.Signal) {
	b, err := os.ReadFile(file)
	if err != nil {
		return
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
		syscall.Kill(pid, sig)
		for i := 0; i < 200 && running(pid); i++ {
			time.Sleep(10 * time.Millisecond)
		}
	}
	os.Remove(file)
}
