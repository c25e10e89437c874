// The driver's part for kubelet 1.34 and later, whose CRI API types are google.golang.org/protobuf messages.
package main

import (
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// marshalCRI writes a CRI message in the protobuf JSON mapping (what the runner's stand-in serves).
func marshalCRI(m proto.Message) ([]byte, error) { return protojson.Marshal(m) }
