package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"

	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

// The --schemas cache. Reading a folder of released CRDs (megabytes of
// YAML) costs far more than checking a document against the one CRD it
// needs, and a CI job runs `celyaml render --schemas crds/` once per
// file. So what reading a YAML schema file gives is kept on disk, keyed by
// the file's content (SHA-256): per document, what validate indexes of a
// CRD (group, kind, scope, served versions) and the document as JSON, read
// only when a rendered document of that CRD is checked; other documents
// are read whole, and a release bundle's other objects are only marked.
// The folder is $CELYAML_CACHE/schemas, else the user's cache folder's
// celyaml/schemas. An entry is written to a temporary file and renamed
// into place, so two processes that race write the same bytes and a
// reader never sees half an entry; an entry that cannot be read is read
// again from the file. Nothing breaks without the folder: the files are
// then read every time.

// schemaCacheFormat names the entry format; a change of it changes every
// key.
const schemaCacheFormat = "celyaml-schemas-1\n"

// schemaCacheDir is the cache folder, "" when there is none.
func schemaCacheDir() string {
	if d := os.Getenv("CELYAML_CACHE"); d != "" {
		return filepath.Join(d, "schemas")
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "celyaml", "schemas")
}

// cachedHeader is an entry's first part; each document's JSON follows,
// in order, Len bytes each.
type cachedHeader struct {
	Docs []cachedDoc
}

type cachedDoc struct {
	CRD   *validate.CRDIndex `json:",omitempty"`
	Other bool               `json:",omitempty"` // skipped: no body
	Null  bool               `json:",omitempty"` // an empty document: no body
	Len   int                `json:",omitempty"`
}

func schemaCacheKey(text []byte) string {
	h := sha256.New()
	h.Write([]byte(schemaCacheFormat))
	h.Write(text)
	return hex.EncodeToString(h.Sum(nil))
}

// cachedSchemas gives the documents of a schema file from the cache, ok
// false when it holds no usable entry for this content.
func cachedSchemas(dir string, text []byte) ([]validate.Indexed, bool) {
	if dir == "" {
		return nil, false
	}
	raw, err := os.ReadFile(filepath.Join(dir, schemaCacheKey(text)))
	if err != nil {
		return nil, false
	}
	nl := bytes.IndexByte(raw, '\n')
	if nl < 0 {
		return nil, false
	}
	n, err := strconv.Atoi(string(raw[:nl]))
	if err != nil || n < 0 || nl+1+n > len(raw) {
		return nil, false
	}
	var h cachedHeader
	if json.Unmarshal(raw[nl+1:nl+1+n], &h) != nil {
		return nil, false
	}
	body := raw[nl+1+n:]
	out := make([]validate.Indexed, 0, len(h.Docs))
	for _, d := range h.Docs {
		if d.Len < 0 || d.Len > len(body) {
			return nil, false
		}
		text := body[:d.Len]
		body = body[d.Len:]
		switch {
		case d.Null:
			out = append(out, validate.Indexed{})
		case d.Other:
			out = append(out, validate.Indexed{Other: true})
		case d.CRD != nil:
			out = append(out, validate.Indexed{CRD: d.CRD, Read: func() (map[string]any, error) {
				v, err := validate.DecodeJSON(text)
				m, _ := v.(map[string]any)
				return m, err
			}})
		default:
			v, err := validate.DecodeJSON(text)
			if err != nil {
				return nil, false
			}
			out = append(out, validate.Indexed{Value: v})
		}
	}
	if len(body) != 0 {
		return nil, false
	}
	return out, true
}

// indexedSchemas turns a file's decoded documents into what LoadIndexed
// takes, and writes them to the cache (best effort).
func indexedSchemas(dir string, text []byte, docs []any) []validate.Indexed {
	out := make([]validate.Indexed, len(docs))
	h := cachedHeader{Docs: make([]cachedDoc, len(docs))}
	var bodies [][]byte
	ok := dir != ""
	for i, p := range docs {
		switch ix, isCRD := validate.IndexOf(p); {
		case p == nil:
			h.Docs[i].Null = true
		case isCRD:
			doc, _ := p.(map[string]any) // IndexOf takes only objects
			out[i] = validate.Indexed{CRD: &ix, Read: func() (map[string]any, error) { return doc, nil }}
			h.Docs[i].CRD = &ix
		case validate.IsOtherObject(p):
			out[i] = validate.Indexed{Other: true}
			h.Docs[i].Other = true
			continue
		default:
			out[i] = validate.Indexed{Value: p}
		}
		if !ok || p == nil {
			continue
		}
		b, err := json.Marshal(p)
		if err != nil {
			ok = false
			continue
		}
		h.Docs[i].Len = len(b)
		bodies = append(bodies, b)
	}
	if ok {
		writeSchemaCache(dir, schemaCacheKey(text), h, bodies)
	}
	return out
}

func writeSchemaCache(dir, key string, h cachedHeader, bodies [][]byte) {
	head, err := json.Marshal(h)
	if err != nil || os.MkdirAll(dir, 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(dir, key+".tmp*")
	if err != nil {
		return
	}
	w := bytes.NewBufferString(strconv.Itoa(len(head)) + "\n")
	w.Write(head)
	for _, b := range bodies {
		w.Write(b)
	}
	_, werr := f.Write(w.Bytes())
	cerr := f.Close()
	if werr != nil || cerr != nil || os.Rename(f.Name(), filepath.Join(dir, key)) != nil {
		_ = os.Remove(f.Name())
	}
}
