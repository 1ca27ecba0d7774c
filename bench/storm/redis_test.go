package main

import "testing"

func TestInfoFields(t *testing.T) {
	info := "# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\n# CPU\r\nused_cpu_sys:1.25\r\nused_cpu_user:0.5\r\n"
	if got := redisVersion(info); got != "Redis 7.0.15" {
		t.Errorf("redisVersion = %q", got)
	}
	if got := redisVersion(""); got != "Redis" {
		t.Errorf("redisVersion(\"\") = %q", got)
	}
	if got := infoField(info, "used_cpu_sys"); got != "1.25" {
		t.Errorf("used_cpu_sys = %q", got)
	}
	if got := infoField(info, "used_cpu"); got != "" {
		t.Errorf("used_cpu = %q, want none", got)
	}
}
