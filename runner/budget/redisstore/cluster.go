package redisstore

import (
	"context"
	"errors"
	"net"
	"slices"
	"strconv"
	"strings"
)

// clusterSlots is the number of hash slots of a Redis Cluster.
const clusterSlots = 16384

// hashSlot returns key's hash slot in a Redis Cluster: the CRC16 (XMODEM)
// of its hash tag, the part between its first '{' and the next '}' when
// that is not empty, else of the whole key, modulo 16384.
func hashSlot(key string) int {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	var crc uint16
	for i := 0; i < len(key); i++ {
		crc ^= uint16(key[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return int(crc) % clusterSlots
}

// redirection reads the node of "MOVED SLOT HOST:PORT" or "ASK SLOT
// HOST:PORT", which from sent. An empty host, which a node whose address
// is unknown to the Cluster sends, is from's.
func redirection(e serverError, from string) (string, bool) {
	f := strings.Fields(string(e))
	if len(f) != 3 {
		return "", false
	}
	i := strings.LastIndexByte(f[2], ':')
	if i < 0 {
		return "", false
	}
	return nodeName(f[2][:i], f[2][i+1:], from)
}

// nodeName returns "host:port" for a node that a Cluster named, with
// from's host when it named none ("" or "?").
func nodeName(host, port, from string) (string, bool) {
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return "", false
	}
	if host == "" || host == "?" {
		host, _, _ = net.SplitHostPort(from)
	}
	return net.JoinHostPort(host, strconv.Itoa(n)), true
}

// learn adds node to the Cluster's nodes known.
func (cl *client) learn(node string) {
	if !slices.Contains(cl.nodes, node) {
		cl.nodes = append(cl.nodes, node)
	}
}

// refresh asks the Cluster's nodes known but failed for the slot map
// (CLUSTER SLOTS), learns its nodes, and returns the node that serves the
// budget's slot now, or "" when none names another than failed: a
// failover has not promoted a replica yet, or no node answers.
func (cl *client) refresh(ctx context.Context, failed string) string {
	for i := 0; i < len(cl.nodes) && ctx.Err() == nil; i++ {
		n := cl.nodes[i]
		if n == failed {
			continue
		}
		c, err := cl.connTo(ctx, n)
		if err != nil {
			continue
		}
		v, err := c.do(ctx, "CLUSTER", "SLOTS")
		if err != nil {
			var se serverError
			if !errors.As(err, &se) {
				cl.drop(c)
			}
			continue
		}
		owner, nodes := parseSlots(v, n, cl.slot)
		for _, m := range nodes {
			cl.learn(m)
		}
		if owner != "" && owner != failed {
			return owner
		}
	}
	return ""
}

// parseSlots reads a CLUSTER SLOTS reply that from sent: the primary of
// slot ("" when none), and every node it names. Each entry is {first
// slot, last slot, primary, replicas...}, and each node {host, port,
// ...}.
func parseSlots(v any, from string, slot int) (owner string, nodes []string) {
	ranges, _ := v.([]any)
	for _, r := range ranges {
		e, _ := r.([]any)
		if len(e) < 3 {
			continue
		}
		first, ok1 := e[0].(int64)
		last, ok2 := e[1].(int64)
		for i, n := range e[2:] {
			f, _ := n.([]any)
			if len(f) < 2 {
				continue
			}
			host, _ := f[0].(string)
			port, _ := f[1].(int64)
			name, ok := nodeName(host, strconv.FormatInt(port, 10), from)
			if !ok {
				continue
			}
			nodes = append(nodes, name)
			if i == 0 && ok1 && ok2 && first <= int64(slot) && int64(slot) <= last {
				owner = name
			}
		}
	}
	return owner, nodes
}
