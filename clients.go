package toolfind

// Every simulator package registers its client profiles with package
// search when imported. Each is imported here, one file per client
// (clients_<name>.go), so that the facade, the CLI and bench know every
// client without further wiring.
