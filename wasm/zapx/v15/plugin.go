// Package zap stands in for zap v15 in tinyRAG's browser build; the
// stand-in is wasm/zapx/standin, whose doc says why.
package zap

import "tinyrag/zapxstandin"

// Version is the zap file format version this stand-in answers for.
const Version uint32 = 15

// ZapPlugin is the stand-in plugin scorch registers.
type ZapPlugin struct{ standin.Plugin }

// Version implements scorch's SegmentPlugin.
func (*ZapPlugin) Version() uint32 { return Version }
