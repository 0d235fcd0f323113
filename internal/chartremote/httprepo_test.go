package chartremote

import (
	"net/url"
	"testing"

	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// TestResolveReference_matchesHelm compares the chart URLs Fetch asks for
// with Helm's own repo/v1 ResolveReferenceURL.
func TestResolveReference_matchesHelm(t *testing.T) {
	for _, base := range []string{
		"https://charts.example.com",
		"https://charts.example.com/",
		"https://charts.example.com/sub/folder",
		"https://charts.example.com/sub/folder/",
		"https://charts.example.com/sub?token=abc",
		"http://127.0.0.1:8080/a%20b/",
	} {
		for _, ref := range []string{
			"index.yaml",
			"app-1.0.0.tgz",
			"charts/app-1.0.0.tgz",
			"/root/app-1.0.0.tgz",
			"../up/app-1.0.0.tgz",
			"https://cdn.example.org/app-1.0.0.tgz",
			"https://cdn.example.org/app-1.0.0.tgz?sig=x",
			"app%2B1.tgz",
		} {
			want, err := repo.ResolveReferenceURL(base, ref)
			if err != nil {
				t.Fatal(err)
			}
			b, err := url.Parse(base)
			if err != nil {
				t.Fatal(err)
			}
			if got := resolveReference(b, ref); got == nil || got.String() != want {
				t.Errorf("resolve(%s, %s) = %v, Helm's %s", base, ref, got, want)
			}
		}
	}
}
