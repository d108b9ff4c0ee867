package symbols

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
)

// The same interface hints yaegi's own stdlib package registers, limited to
// the packages in this table.
func init() {
	mt := []reflect.Type{
		reflect.TypeOf((*fmt.Formatter)(nil)).Elem(),
		reflect.TypeOf((*fmt.Stringer)(nil)).Elem(),
	}
	for _, f := range []any{fmt.Errorf, fmt.Fprint, fmt.Fprintf, fmt.Fprintln,
		fmt.Print, fmt.Printf, fmt.Println, fmt.Sprint, fmt.Sprintf, fmt.Sprintln,
		fmt.Append, fmt.Appendf, fmt.Appendln} {
		MapTypes[reflect.ValueOf(f)] = mt
	}
	MapTypes[reflect.ValueOf(json.Marshal)] = []reflect.Type{
		reflect.TypeOf((*json.Marshaler)(nil)).Elem(),
		reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem(),
	}
	MapTypes[reflect.ValueOf(json.MarshalIndent)] = MapTypes[reflect.ValueOf(json.Marshal)]
	MapTypes[reflect.ValueOf(json.Unmarshal)] = []reflect.Type{
		reflect.TypeOf((*json.Unmarshaler)(nil)).Elem(),
		reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem(),
	}
}
