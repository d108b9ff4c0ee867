package guard

import (
	"net/netip"
	"testing"
)

func TestClassify_EveryClosedRangeAndEmbeddedForm(t *testing.T) {
	tests := []struct {
		addr string
		want Class
	}{
		{"8.8.8.8", Public},
		{"93.184.216.34", Public},
		{"2606:4700:4700::1111", Public},
		{"127.0.0.1", Loopback},
		{"127.255.255.254", Loopback},
		{"::1", Loopback},
		{"10.0.0.1", Private},
		{"172.16.0.1", Private},
		{"172.31.255.255", Private},
		{"192.168.1.1", Private},
		{"100.64.0.1", SharedCGNAT},
		{"169.254.1.1", LinkLocal},
		{"fe80::1", LinkLocal},
		{"fc00::1", UniqueLocal},
		{"fd12:3456::1", UniqueLocal},
		{"fec0::1", SiteLocal},
		{"0.0.0.0", Unspecified},
		{"0.1.2.3", Unspecified},
		{"::", Unspecified},
		{"224.0.0.1", Multicast},
		{"239.255.255.250", Multicast},
		{"ff02::1", Multicast},
		{"255.255.255.255", Broadcast},
		{"240.0.0.1", Reserved},
		{"192.0.2.1", Reserved},
		{"198.18.0.1", Reserved},
		{"2001:db8::1", Reserved},
		{"169.254.169.254", Metadata},
		{"169.254.170.2", Metadata},
		{"100.100.100.200", Metadata},
		{"fd00:ec2::254", Metadata},
		// IPv4 hidden inside IPv6.
		{"::ffff:127.0.0.1", Loopback},
		{"::ffff:10.0.0.1", Private},
		{"::ffff:169.254.169.254", Metadata},
		{"::ffff:8.8.8.8", Public},
		{"::127.0.0.1", Loopback},
		{"::8.8.8.8", Reserved},
		{"::ffff:0:192.168.0.1", Private},
		{"64:ff9b::10.0.0.1", Private},
		{"64:ff9b::8.8.8.8", Public},
		{"64:ff9b:1::a00:1", Private},
		{"2002:7f00:1::", Loopback},
		{"2002:a9fe:a9fe::1", Metadata},
		{"2002:0808:0808::1", Public},
		{"2001:0:4136:e378:8000:63bf:80ff:fffe", Loopback}, // Teredo, client 127.0.0.1 inverted
		{"fe80::1%eth0", LinkLocal},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			if got := Classify(netip.MustParseAddr(tt.addr)); got != tt.want {
				t.Errorf("Classify(%s) = %q, want %q", tt.addr, got, tt.want)
			}
		})
	}
}

func TestParseHost_NumericSpellingsAreAddresses(t *testing.T) {
	tests := []struct {
		host    string
		want    string // "" means: a DNS name
		wantErr bool
	}{
		{"example.com", "", false},
		{"a1.example", "", false},
		{"0x7f.example", "", false},
		{"127.0.0.1", "127.0.0.1", false},
		{"2130706433", "127.0.0.1", false},
		{"017700000001", "127.0.0.1", false},
		{"0x7f000001", "127.0.0.1", false},
		{"0X7F000001", "127.0.0.1", false},
		{"0177.0.0.1", "127.0.0.1", false},
		{"0x7f.0.0.1", "127.0.0.1", false},
		{"127.1", "127.0.0.1", false},
		{"127.0.1", "127.0.0.1", false},
		{"0x7f.1", "127.0.0.1", false},
		{"10.0.0.1.", "10.0.0.1", false},
		{"0xa9fea9fe", "169.254.169.254", false},
		{"0251.0376.0251.0376", "169.254.169.254", false},
		{"0", "0.0.0.0", false},
		{"[::1]", "::1", false},
		{"::ffff:7f00:1", "::ffff:127.0.0.1", false},
		{"[::ffff:127.0.0.1]", "::ffff:127.0.0.1", false},
		{"1.2.3.4.5", "", true},
		{"256.0.0.1", "", true},
		{"1.2.3.256", "", true},
		{"4294967296", "", true},
		{"08.0.0.1", "", true},
		{"example.123", "", true},
		{"[fe80::1%25eth0]", "", true},
		{"[::1", "", true},
		{"", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			a, ok, err := ParseHost(tt.host)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseHost(%q) error = %v, wantErr %v", tt.host, err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if tt.want == "" {
				if ok {
					t.Fatalf("ParseHost(%q) = %s, want a DNS name", tt.host, a)
				}
				return
			}
			if !ok || a != netip.MustParseAddr(tt.want) {
				t.Fatalf("ParseHost(%q) = %s,%v, want %s", tt.host, a, ok, tt.want)
			}
		})
	}
}
