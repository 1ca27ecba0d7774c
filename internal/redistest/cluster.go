package redistest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrNoCLI says that redis-cli, which joins a cluster, is not installed:
// a test then skips.
var ErrNoCLI = errors.New("redis-cli is not installed (Debian package redis-tools); skipping")

// Cluster is a running Redis Cluster of primaries without replicas.
type Cluster struct {
	Nodes []*Server
}

// StartCluster starts n servers in directories under dir, with
// cluster-enabled, joins them with redis-cli --cluster create (which
// shares the 16384 slots among them), and waits until every node says
// the cluster is ok.
func StartCluster(dir string, n int) (*Cluster, error) {
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		return nil, ErrNoCLI
	}
	c := &Cluster{}
	for i := range n {
		d := filepath.Join(dir, "node"+strconv.Itoa(i))
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
		s, err := Start(d, Config{Args: []string{"--cluster-enabled", "yes", "--cluster-config-file", filepath.Join(d, "nodes.conf"), "--cluster-node-timeout", "5000"}})
		if err != nil {
			c.Stop()
			return nil, err
		}
		c.Nodes = append(c.Nodes, s)
	}
	args := []string{"--cluster", "create"}
	for _, s := range c.Nodes {
		args = append(args, s.Addr())
	}
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.Command(cli, args...).CombinedOutput(); err != nil {
		c.Stop()
		return nil, fmt.Errorf("redis-cli --cluster create: %v: %s", err, lastLine(string(out)))
	}
	for _, s := range c.Nodes {
		err := waitFor(30*time.Second, "cluster_state:ok on "+s.Addr(), func() (bool, error) {
			state, err := s.Info("cluster", "cluster_enabled")
			if err != nil || state != "1" {
				return false, err
			}
			info, err := s.DoString("CLUSTER", "INFO")
			return strings.Contains(info, "cluster_state:ok") && strings.Contains(info, "cluster_known_nodes:"+strconv.Itoa(n)), err
		})
		if err != nil {
			c.Stop()
			return nil, err
		}
	}
	return c, nil
}

// Stop stops every node.
func (c *Cluster) Stop() {
	for _, s := range c.Nodes {
		s.Stop()
	}
}

// ID returns the node's id in the cluster.
func (s *Server) ID() (string, error) { return s.DoString("CLUSTER", "MYID") }

// Owner returns the node that serves slot, as the first node says.
func (c *Cluster) Owner(slot int) (*Server, error) {
	ranges, err := c.Nodes[0].Do("CLUSTER", "SLOTS")
	if err != nil {
		return nil, err
	}
	for _, r := range ranges.([]any) {
		e := r.([]any)
		if e[0].(int64) <= int64(slot) && int64(slot) <= e[1].(int64) {
			port := e[2].([]any)[1].(int64)
			for _, n := range c.Nodes {
				if int64(n.Port) == port {
					return n, nil
				}
			}
		}
	}
	return nil, fmt.Errorf("no node serves slot %d", slot)
}

// Migration stages, which MoveSlot passes to its hook.
const (
	// Marked: the target is IMPORTING the slot, its owner MIGRATING it.
	Marked = "marked"
	// Migrated: the keys are on the target (MIGRATE); the slot is still
	// the owner's.
	Migrated = "migrated"
)

// MoveSlot moves slot from the node that serves it to to, by hand, as
// redis-cli --cluster reshard does: CLUSTER SETSLOT IMPORTING and
// MIGRATING, MIGRATE of every key in it, then SETSLOT NODE on every node.
// between, when not nil, is called at each stage (Marked, Migrated), so
// that a test can use the cluster while the slot moves.
func (c *Cluster) MoveSlot(slot int, to *Server, between func(stage string)) error {
	from, err := c.Owner(slot)
	if err != nil {
		return err
	}
	if from == to {
		return fmt.Errorf("slot %d is on %s already", slot, to.Addr())
	}
	fromID, err := from.ID()
	if err != nil {
		return err
	}
	toID, err := to.ID()
	if err != nil {
		return err
	}
	n := strconv.Itoa(slot)
	if _, err := to.Do("CLUSTER", "SETSLOT", n, "IMPORTING", fromID); err != nil {
		return fmt.Errorf("SETSLOT IMPORTING: %v", err)
	}
	if _, err := from.Do("CLUSTER", "SETSLOT", n, "MIGRATING", toID); err != nil {
		return fmt.Errorf("SETSLOT MIGRATING: %v", err)
	}
	if between != nil {
		between(Marked)
	}
	for {
		v, err := from.Do("CLUSTER", "GETKEYSINSLOT", n, "100")
		if err != nil {
			return err
		}
		keys, _ := v.([]any)
		if len(keys) == 0 {
			break
		}
		args := []string{"MIGRATE", "127.0.0.1", strconv.Itoa(to.Port), "", "0", "5000", "KEYS"}
		for _, k := range keys {
			args = append(args, k.(string))
		}
		if _, err := from.Do(args...); err != nil {
			return fmt.Errorf("MIGRATE: %v", err)
		}
	}
	if between != nil {
		between(Migrated)
	}
	// The target first, then the old owner, then the others, as the
	// Cluster's documentation orders it.
	order := []*Server{to, from}
	for _, s := range c.Nodes {
		if s != to && s != from {
			order = append(order, s)
		}
	}
	for _, s := range order {
		if _, err := s.Do("CLUSTER", "SETSLOT", n, "NODE", toID); err != nil {
			return fmt.Errorf("SETSLOT NODE on %s: %v", s.Addr(), err)
		}
	}
	return nil
}
