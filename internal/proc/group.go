package proc

import "os/exec"

// Group is the processes of one command retry runs, an attempt or the
// --on-retry command: its first process and those it starts. On Unix it
// is the process group the first process leads; on Windows, a job object
// that holds the first process from before it runs its first instruction,
// and so every process it starts. Start makes one; Signal, Running, Watch
// and Wait act on it.
type Group struct {
	cmd *exec.Cmd
	//lint:ignore U1000 only Windows keeps anything here (a job object)
	sys groupSys // what the platform keeps besides cmd
}
