package main

// liveProgramName is the program that holds the MCP Go SDK
// (cmd/toolfind-live): toolfind runs it for --server and --url and does
// not link the SDK itself (package corpus/live/remote).
const liveProgramName = "toolfind-live"

var liveHelper = helper{liveProgramName, "--live-program", "TOOLFIND_LIVE_PROGRAM",
	"--server and --url run the " + liveProgramName + " program (it holds the MCP Go SDK)"}

// findLiveProgram is the toolfind-live to run (helper.find).
func findLiveProgram(flag string) (string, error) { return liveHelper.find(flag) }
