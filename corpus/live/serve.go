package live

import (
	"context"
	"encoding/json"
	"io"

	"github.com/toolfind/toolfind/corpus/live/remote"
)

// Serve is the work of toolfind's live-server child: it answers a
// corpus/live/remote.Client on in and out (the protocol of package
// remote) with TakeAll and Call, until in ends or ctx is done; the
// servers still running are then stopped and reaped before it returns.
func Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	return remote.Serve(ctx, in, out, remote.Handler{
		TakeAll: func(ctx context.Context, srcs []Source, o remote.Options) ([]*Snapshot, error) {
			return TakeAll(ctx, srcs, remoteOptions(o))
		},
		Call: func(ctx context.Context, src Source, o remote.Options, tool string, args json.RawMessage) (*ToolCall, error) {
			return Call(ctx, src, remoteOptions(o), tool, args)
		},
	})
}

// remoteOptions are the Options a remote client sent.
func remoteOptions(o remote.Options) Options {
	return Options{Timeout: o.Timeout, ProtocolVersion: o.ProtocolVersion, ClientName: o.ClientName,
		ClientVersion: o.ClientVersion, ShutdownGrace: o.ShutdownGrace}
}
