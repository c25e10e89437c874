// The driver's part for kubelet 1.33 and earlier, whose CRI API types are gogo/protobuf messages.
package main

import (
	"bytes"

	"github.com/gogo/protobuf/jsonpb"
	"github.com/gogo/protobuf/proto"
)

// marshalCRI writes a CRI message in the protobuf JSON mapping (what the runner's stand-in serves).
func marshalCRI(m proto.Message) ([]byte, error) {
	var b bytes.Buffer
	err := (&jsonpb.Marshaler{}).Marshal(&b, m)
	return b.Bytes(), err
}
