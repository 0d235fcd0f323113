package chart

import "testing"

func TestRemote_shownRepositoryLeavesOutCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"https://charts.example.com/sub":                "https://charts.example.com/sub",
		"https://alice:s3cret@charts.example.com/sub":   "https://charts.example.com/sub",
		"https://token@charts.example.com/?auth=x#frag": "https://charts.example.com/",
		"oci://registry.example/charts":                 "oci://registry.example/charts",
		"https://charts.example.com/%zz":                "(a repository that is not a URL)",
	} {
		if got := (Remote{Repository: in}).ShownRepository(); got != want {
			t.Errorf("ShownRepository(%s) = %s, want %s", in, got, want)
		}
	}
}
