package bm25_test

import (
	"fmt"

	"github.com/toolfind/toolfind/search/bm25"
)

func ExampleTokenize() {
	fmt.Println(bm25.Tokenize("Creates a Pull_Request — see ref:block, mail noreply@x.com"))
	// Output: [creat pull_request see ref:block mail norepli x.com]
}

func ExampleIndex_Search() {
	ix := bm25.New([]string{"The running dogs", "A cat is running", "Dogs and cats"})
	for _, m := range ix.Search("dog dog cat") {
		fmt.Println(m.Doc, m.Score)
	}
	// Output:
	// 2 1.4100109
	// 0 0.94000727
	// 1 0.47000363
}

func ExampleIndex_Explain() {
	ix := bm25.New([]string{"save_issue create-issue", "issue Issues ISSUE", "ref:block sent to noreply@x.com", ""})
	for _, ts := range ix.Explain("create-issue", 0) {
		fmt.Printf("%s tf=%d df=%d idf=%v value=%v score=%v\n", ts.Token, ts.TF, ts.DF, ts.IDF, ts.Value, ts.Score)
	}
	// Output:
	// creat tf=1 df=1 idf=1.2039728 value=0.92436975 score=1.1129161
	// issu tf=1 df=2 idf=0.6931472 value=0.92436975 score=0.6407243
}

func ExampleTransliterate() {
	fmt.Println(bm25.Transliterate("列出文件 — café"))
	fmt.Println(bm25.Tokenize("列出文件 — café\nlist"))
	// Output:
	// Lie Chu Wen Jian -- cafe
	// [lie chu wen jian cafelist]
}
