package suggest_test

import (
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/internal/suggest"
)

func ExampleClosest() {
	keys := []string{"type", "minLength", "maxLength", "description"}
	o := suggest.Options{MaxDistance: 2, Same: strings.EqualFold}
	for _, typo := range []string{"minLenght", "MAXLENGTH", "descripton", "format"} {
		fmt.Printf("%s: %q\n", typo, suggest.Closest(typo, keys, o))
	}
	// Output:
	// minLenght: "minLength"
	// MAXLENGTH: "maxLength"
	// descripton: "description"
	// format: ""
}

func ExampleDistance() {
	fmt.Println(suggest.Distance("kitten", "sitting"), suggest.Distance("nmae", "name"))
	// Output: 3 1
}
