//go:build unix

// Command interleave times commands against one another on a shared
// machine: each round runs every command once, in a new random order, and
// each command's wall time and CPU time (user + system, of it and the
// children it waited for) are set against the first command's of the same
// round. It prints each command's median wall and CPU time, and the
// median of its per-round ratios to the first command, with a 95%
// bootstrap interval of the CPU ratio. Pairing by round cancels most of
// the load that other work puts on the machine, which a run of one
// command after another does not; hyperfine's rounds are whole runs of
// one command. It is a benchmark tool, not API.
//
// Each program named by a path is copied into a temporary directory
// first, all at the same time: a copy some minutes old can start 10%
// slower than a fresh one of the same bytes.
//
// Usage:
//
//	interleave [-n ROUNDS] NAME='[@VAR=VALUE ...] PROGRAM [ARG...]' ...
//
// For example, a change against the build before it, beside recur:
//
//	go run ./bench/interleave -n 1000 old='/tmp/old -- true' \
//		new='/tmp/new -- true' recur='/tmp/recur true'
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

type command struct {
	name string
	argv []string
	env  []string // added to the environment
}

func main() {
	rounds := flag.Int("n", 500, "rounds")
	flag.Parse()
	cmds, err := parse(flag.Args())
	if err == nil && len(cmds) < 2 {
		err = fmt.Errorf("want two commands or more")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "interleave:", err)
		os.Exit(2)
	}
	tmp, err := os.MkdirTemp("", "interleave")
	if err != nil {
		fmt.Fprintln(os.Stderr, "interleave:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(tmp)
	if err := copyPrograms(cmds, tmp); err != nil {
		fmt.Fprintln(os.Stderr, "interleave:", err)
		os.Exit(1)
	}
	wall, cpu, err := measure(cmds, *rounds)
	if err != nil {
		fmt.Fprintln(os.Stderr, "interleave:", err)
		os.Exit(1)
	}
	fmt.Printf("%d rounds; ratios are to %s, paired by round\n", *rounds, cmds[0].name)
	fmt.Printf("%-14s %10s %10s %11s %11s %22s\n", "command", "wall ms", "CPU ms", "wall ratio", "CPU ratio", "CPU ratio, 95% interval")
	for i, c := range cmds {
		wr, cr := ratios(wall, i), ratios(cpu, i)
		lo, hi := interval(cr)
		fmt.Printf("%-14s %10.3f %10.3f %11.3f %11.3f %11.3f to %.3f\n", c.name, median(column(wall, i)), median(column(cpu, i)), median(wr), median(cr), lo, hi)
	}
}

// parse reads NAME='[@VAR=VALUE ...] PROGRAM [ARG...]' arguments.
func parse(args []string) ([]command, error) {
	var cmds []command
	for _, a := range args {
		name, line, ok := strings.Cut(a, "=")
		fields := strings.Fields(line)
		c := command{name: name}
		for len(fields) > 0 && strings.HasPrefix(fields[0], "@") {
			c.env = append(c.env, fields[0][1:])
			fields = fields[1:]
		}
		if !ok || name == "" || len(fields) == 0 {
			return nil, fmt.Errorf("want NAME=COMMAND, got %q", a)
		}
		c.argv = fields
		cmds = append(cmds, c)
	}
	return cmds, nil
}

// copyPrograms copies each program given by a path into dir.
func copyPrograms(cmds []command, dir string) error {
	copied := map[string]string{}
	for i := range cmds {
		prog := cmds[i].argv[0]
		if !strings.ContainsRune(prog, '/') {
			continue
		}
		if to, ok := copied[prog]; ok {
			cmds[i].argv[0] = to
			continue
		}
		b, err := os.ReadFile(prog)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, fmt.Sprintf("%d-%s", i, filepath.Base(prog)))
		if err := os.WriteFile(to, b, 0o755); err != nil {
			return err
		}
		copied[prog], cmds[i].argv[0] = to, to
	}
	return nil
}

// measure runs the rounds, after a few of warm-up, and returns the wall
// and CPU times in milliseconds, by round and command.
func measure(cmds []command, rounds int) (wall, cpu [][]float64, err error) {
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, err
	}
	defer devnull.Close()
	run := func(c command) (w, u float64, err error) {
		cmd := exec.Command(c.argv[0], c.argv[1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, devnull, devnull
		if c.env != nil {
			cmd.Env = append(os.Environ(), c.env...)
		}
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return 0, 0, fmt.Errorf("%s: %v", c.name, err)
		}
		w = time.Since(start).Seconds() * 1000
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		u = float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
		return w, u, nil
	}
	order := make([]int, len(cmds))
	for i := range order {
		order[i] = i
	}
	for r := -10; r < rounds; r++ {
		rand.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		ws, us := make([]float64, len(cmds)), make([]float64, len(cmds))
		for _, i := range order {
			if ws[i], us[i], err = run(cmds[i]); err != nil {
				return nil, nil, err
			}
		}
		if r >= 0 {
			wall, cpu = append(wall, ws), append(cpu, us)
		}
	}
	return wall, cpu, nil
}

func column(m [][]float64, i int) []float64 {
	out := make([]float64, len(m))
	for r := range m {
		out[r] = m[r][i]
	}
	return out
}

// ratios returns command i's times over the first command's, by round.
func ratios(m [][]float64, i int) []float64 {
	out := make([]float64, 0, len(m))
	for r := range m {
		if m[r][0] > 0 {
			out = append(out, m[r][i]/m[r][0])
		}
	}
	return out
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

// interval is a 95% bootstrap interval of the median of v.
func interval(v []float64) (lo, hi float64) {
	if len(v) == 0 {
		return 0, 0
	}
	r := rand.New(rand.NewPCG(1, 2))
	meds := make([]float64, 1000)
	sample := make([]float64, len(v))
	for b := range meds {
		for i := range sample {
			sample[i] = v[r.IntN(len(v))]
		}
		meds[b] = median(sample)
	}
	slices.Sort(meds)
	return meds[25], meds[974]
}
