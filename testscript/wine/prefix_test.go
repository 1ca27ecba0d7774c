//go:build linux

package wine_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// winePrefix is the private Wine prefix the tests share, made on first
// use and removed by TestMain.
var winePrefix = &prefix{}

// prefix is a Wine prefix of the tests' own, with retry.exe and the
// tests' helpers built for it.
type prefix struct {
	once sync.Once
	skip string // why the tests cannot run here; "" when they can
	err  error

	wine, wineserver string
	dir              string // holds everything: the prefix, the binaries, bin
	bin              string // "retry" here runs retry.exe under Wine
	localAppData     string // %LocalAppData%, as a Linux path
	keepAlive        io.Closer

	breakOnce sync.Once
	breaks    bool
}

// get returns the prefix, made on the first call, or skips t when the
// tools are missing.
func (p *prefix) get(t *testing.T) *prefix {
	t.Helper()
	p.once.Do(func() { p.err = p.make() })
	if p.skip != "" {
		t.Skip(p.skip)
	}
	if p.err != nil {
		t.Fatal(p.err)
	}
	return p
}

// env is the environment of every Wine command: the private prefix, no
// debug output, no prompt to install Mono or Gecko, no desktop menus,
// no display, and one $TMPDIR, where Wine finds the server of the
// prefix: under another, a command would start a second server, which
// knows nothing of the first one's processes.
func (p *prefix) env() []string {
	return []string{
		"TMPDIR=" + filepath.Join(p.dir, "tmp"),
		"WINEPREFIX=" + filepath.Join(p.dir, "prefix"),
		"WINEDEBUG=-all",
		"WINEDLLOVERRIDES=mscoree,mshtml,winemenubuilder.exe=d",
		"WINEARCH=win64",
		"DISPLAY=",
		"WAYLAND_DISPLAY=",
	}
}

func (p *prefix) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), p.env()...)
	cmd.Dir = p.dir
	return cmd
}

// run runs a command of the set-up, for at most limit, and returns its
// stdout. Its output goes to files, not pipes: the Wine server and the
// services that a Wine command starts outlive it, and would hold a pipe
// open.
func (p *prefix) run(limit time.Duration, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := p.command(ctx, name, args...)
	stdout, err := os.CreateTemp(p.dir, "stdout-")
	if err != nil {
		return nil, err
	}
	defer os.Remove(stdout.Name())
	defer stdout.Close()
	stderr, err := os.CreateTemp(p.dir, "stderr-")
	if err != nil {
		return nil, err
	}
	defer os.Remove(stderr.Name())
	defer stderr.Close()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err = cmd.Run()
	out, _ := os.ReadFile(stdout.Name())
	if err != nil {
		msg, _ := os.ReadFile(stderr.Name())
		return out, fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, msg)
	}
	return out, nil
}

// make finds Wine, and the MinGW compiler when this Wine needs the shim,
// and makes the prefix: `wineboot -i`, the shim in system32, retry.exe
// and the helpers built with GOOS=windows.
func (p *prefix) make() error {
	if p.wine = lookPath("wine", "wine64", "/usr/lib/wine/wine64"); p.wine == "" {
		p.skip = "wine is not installed (Debian package wine64); the Windows tests need it"
		return nil
	}
	p.wineserver = lookPath("wineserver", "/usr/lib/wine/wineserver64", "/usr/lib/wine/wineserver")
	gcc := lookPath("x86_64-w64-mingw32-gcc")
	if lookPath("go") == "" {
		p.skip = "the go command is not on $PATH; it builds retry.exe"
		return nil
	}
	var err error
	if p.dir, err = os.MkdirTemp("", "retry-wine-"); err != nil {
		return err
	}
	p.bin = filepath.Join(p.dir, "bin")
	for _, dir := range []string{p.bin, filepath.Join(p.dir, "tmp")} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
	}

	// wineboot takes seconds and little CPU: the builds overlap it.
	boot := make(chan error, 1)
	go func() {
		_, err := p.run(3*time.Minute, p.wine, "wineboot", "-i")
		boot <- err
	}()
	build := p.build()
	if err := <-boot; err != nil {
		return fmt.Errorf("making the Wine prefix: %w", err)
	}
	if build != nil {
		return build
	}
	system32 := filepath.Join(p.dir, "prefix", "drive_c", "windows", "system32")
	if _, err := os.Stat(filepath.Join(system32, "bcryptprimitives.dll")); err != nil {
		if gcc == "" {
			p.skip = "x86_64-w64-mingw32-gcc is not installed (Debian package gcc-mingw-w64-x86-64): it builds the ProcessPrng shim that Go programs need under this Wine"
			return nil
		}
		src, err := filepath.Abs(filepath.Join("shim", "bcryptprimitives.c"))
		if err != nil {
			return err
		}
		if _, err := p.run(time.Minute, gcc, "-shared", "-O2", "-s", "-o", filepath.Join(system32, "bcryptprimitives.dll"), src, "-ladvapi32"); err != nil {
			return fmt.Errorf("building the ProcessPrng shim: %w", err)
		}
	}
	if err := p.startKeepAlive(); err != nil {
		return err
	}
	if out, err := p.run(time.Minute, p.wine, p.exe("retry"), "--version"); err != nil {
		return fmt.Errorf("retry.exe does not run under Wine: %w", err)
	} else if !bytes.HasPrefix(out, []byte("retry ")) {
		return fmt.Errorf("retry.exe --version printed %q", out)
	}
	out, err := p.run(time.Minute, p.wine, "cmd", "/c", "echo %LocalAppData%")
	if err != nil {
		return err
	}
	p.localAppData = p.unixPath(strings.TrimSpace(string(out)))
	wrapper := fmt.Sprintf("#!/bin/sh\nexec '%s' '%s' \"$@\"\n", p.wine, p.exe("retry"))
	return os.WriteFile(filepath.Join(p.bin, "retry"), []byte(wrapper), 0o755)
}

// build builds retry.exe and the helpers into the prefix's directory.
func (p *prefix) build() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", p.dir+string(filepath.Separator), "github.com/b0a38808/retry", "./ctrlevent")
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building retry.exe: %v\n%s", err, out)
	}
	return nil
}

// startKeepAlive starts a Windows process that lives until close: while
// one runs, the Wine server and its services stay up, and each command
// starts in a fraction of a second instead of booting them again.
func (p *prefix) startKeepAlive() error {
	cmd := p.command(context.Background(), p.wine, "cmd", "/c", "set /p x=")
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	p.keepAlive = closer(func() error {
		in.Close() // cmd's `set /p` reads the end of its input and exits
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			return cmd.Process.Kill()
		}
	})
	return nil
}

type closer func() error

func (c closer) Close() error { return c() }

// close stops every process of the prefix and removes it.
func (p *prefix) close() {
	if p.dir == "" {
		return
	}
	if p.keepAlive != nil {
		_ = p.keepAlive.Close()
	}
	if p.wineserver != "" {
		_, _ = p.run(30*time.Second, p.wineserver, "-k")
	}
	_ = os.RemoveAll(p.dir)
}

// exe returns the Linux path of the Windows program name built by build.
func (p *prefix) exe(name string) string { return filepath.Join(p.dir, name+".exe") }

// windowsPath returns the Windows name of the Linux path name: Wine's
// drive Z: is the root.
func windowsPath(name string) string { return `Z:` + strings.ReplaceAll(name, "/", `\`) }

// unixPath returns the Linux path of a path on the prefix's drive C:.
func (p *prefix) unixPath(name string) string {
	rest, ok := strings.CutPrefix(name, `C:\`)
	if !ok {
		return name
	}
	return filepath.Join(p.dir, "prefix", "drive_c", filepath.FromSlash(strings.ReplaceAll(rest, `\`, "/")))
}

// lookPath returns the first of names found on $PATH, or that exists as
// an absolute path; "" when none is.
func lookPath(names ...string) string {
	for _, name := range names {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	return ""
}
