package transform

import "testing"

// Image references split as kustomize splits them (reference §10 images):
// a registry's port belongs to the name; the tag is what follows the first
// ':' after the first '/', the digest what follows '@'.
func TestSplitImage(t *testing.T) {
	cases := []struct{ ref, name, tag, digest string }{
		{"nginx", "nginx", "", ""},
		{"nginx:1.25", "nginx", "1.25", ""},
		{"nginx@sha256:abc", "nginx", "", "sha256:abc"},
		{"nginx:1.25@sha256:abc", "nginx", "1.25", "sha256:abc"},
		{"registry.local:5000/app", "registry.local:5000/app", "", ""},
		{"registry.local:5000/app:1.0", "registry.local:5000/app", "1.0", ""},
		{"registry.local:5000/team/app@sha256:abc", "registry.local:5000/team/app", "", "sha256:abc"},
		{"registry.local:5000/team/app:1.0@sha256:abc", "registry.local:5000/team/app", "1.0", "sha256:abc"},
		{"registry.local:5000", "registry.local", "5000", ""},
		{"/abs:1", "/abs", "1", ""},
		{"", "", "", ""},
	}
	for _, c := range cases {
		name, tag, digest := splitImage(c.ref)
		if name != c.name || tag != c.tag || digest != c.digest {
			t.Errorf("splitImage(%q) = %q, %q, %q; want %q, %q, %q", c.ref, name, tag, digest, c.name, c.tag, c.digest)
		}
	}
}

func TestImageMatches(t *testing.T) {
	cases := []struct {
		ref, name string
		want      bool
	}{
		{"nginx", "nginx", true},
		{"nginx:1.25", "nginx", true},
		{"nginx:1.25@sha256:abc", "nginx", true},
		{"nginx@sha512:abc", "nginx", true},
		{"nginx@multihash+base58:abc", "nginx", true},
		{"nginx-exporter:1", "nginx", false},
		{"docker.io/nginx", "nginx", false},
		{"nginx:1.25+build", "nginx", false},
		{"nginx@:abc", "nginx", false},
		{"nginx@sha256", "nginx", false},
		{"nginx@sha-:abc", "nginx", false},
		{"registry.local:5000/app:1", "registry.local:5000/app", true},
		{"registry.local:5000/app:1", "registry.local", false},
		{"nginx:{{tag}}", "nginx", true},
		{"nginxa", "ngin.", false}, // a name is text, not a pattern
	}
	for _, c := range cases {
		if got := imageMatches(c.ref, c.name); got != c.want {
			t.Errorf("imageMatches(%q, %q) = %v, want %v", c.ref, c.name, got, c.want)
		}
	}
}

func TestImageRewrite(t *testing.T) {
	cases := []struct {
		im   Image
		ref  string
		want string
	}{
		{Image{Name: "nginx", NewTag: "1.27"}, "nginx:1.25@sha256:abc", "nginx:1.27"},
		{Image{Name: "nginx", Digest: "sha256:def"}, "nginx:1.25", "nginx@sha256:def"},
		{Image{Name: "nginx", NewTag: "1.27", Digest: "sha256:def"}, "nginx", "nginx:1.27@sha256:def"},
		{Image{Name: "nginx", NewName: "mirror/nginx"}, "nginx:1.25@sha256:abc", "mirror/nginx:1.25@sha256:abc"},
		{Image{Name: "r:5000/app", NewName: "q:6000/app", NewTag: "2"}, "r:5000/app:1", "q:6000/app:2"},
	}
	for _, c := range cases {
		if got := c.im.rewrite(c.ref); got != c.want {
			t.Errorf("%+v.rewrite(%q) = %q, want %q", c.im, c.ref, got, c.want)
		}
	}
}
