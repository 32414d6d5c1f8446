package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// evaluates reports whether bash evaluates a value as code at node n: an
// arithmetic context ($((x)), $[x], ((x)), let, for ((...)), [[ x -eq y ]])
// evaluates a variable's value as an expression, and an expression may
// hold an array subscript running a command substitution
// (x='a[$(cmd)]'); so do array subscripts (${a[x]}, a[x]=1, (([x]=1))),
// slices (${x:x}), indirect expansion (${!x}), prompt expansion (${x@P})
// and the variable test [[ -v x ]]. Only numbers are safe in these
// places: the line cannot be read with certainty otherwise.
func evaluates(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.ArithmExp:
		return !safeArithm(n.X)
	case *syntax.ArithmCmd:
		return !safeArithm(n.X)
	case *syntax.LetClause:
		for _, x := range n.Exprs {
			if !safeArithm(x) {
				return true
			}
		}
	case *syntax.CStyleLoop:
		return !safeArithm(n.Init) || !safeArithm(n.Cond) || !safeArithm(n.Post)
	case *syntax.ParamExp:
		return paramEvaluates(n)
	case *syntax.Assign:
		return n.Index != nil && !safeArithm(n.Index)
	case *syntax.ArrayElem:
		return n.Index != nil && !safeArithm(n.Index)
	case *syntax.BinaryTest:
		switch n.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			return !safeTestOperand(n.X) || !safeTestOperand(n.Y)
		}
	case *syntax.UnaryTest:
		if n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar {
			w, ok := n.X.(*syntax.Word)
			v, lit := literalWord(w)
			return !ok || !lit || !isName(v)
		}
	}
	return false
}

// paramEvaluates reports whether a parameter expansion evaluates a value:
// an indirect ${!x} (its value may name a[$(cmd)]), a prompt expansion
// ${x@P}, or a subscript or slice that is not a number.
func paramEvaluates(p *syntax.ParamExp) bool {
	allIndex := false
	if w, ok := p.Index.(*syntax.Word); ok {
		v, lit := literalWord(w)
		allIndex = lit && (v == "@" || v == "*")
	}
	switch {
	case p.Excl && p.Names == 0 && !allIndex: // ${!x}, not ${!x*} or ${!a[@]}
		return true
	case p.Exp != nil && p.Exp.Op == syntax.OtherParamOps && p.Exp.Word != nil:
		v, _ := literalWord(p.Exp.Word)
		if v != "Q" && v != "E" && v != "A" && v != "a" && v != "U" && v != "u" && v != "L" && v != "K" && v != "k" {
			return true // @P and anything unknown
		}
	case p.Index != nil && !allIndex && !safeArithm(p.Index):
		return true
	case p.Slice != nil:
		return !safeArithm(p.Slice.Offset) || !safeArithm(p.Slice.Length)
	}
	return false
}

// safeArithm reports whether an arithmetic expression holds only numbers
// and operators: nothing whose value bash would evaluate in turn.
func safeArithm(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case nil:
		return true
	case *syntax.BinaryArithm:
		return safeArithm(x.X) && safeArithm(x.Y)
	case *syntax.UnaryArithm:
		return x.Op != syntax.Inc && x.Op != syntax.Dec && safeArithm(x.X)
	case *syntax.ParenArithm:
		return safeArithm(x.X)
	case *syntax.Word:
		return safeNumberWord(x)
	}
	return false
}

// safeTestOperand reports whether an operand of [[ a -eq b ]] is a number.
func safeTestOperand(x syntax.TestExpr) bool {
	w, ok := x.(*syntax.Word)
	return ok && safeNumberWord(w)
}

// safeNumberWord reports whether w is a literal number or one of the
// special parameters that always hold a number ($#, $?, $$, $!).
func safeNumberWord(w *syntax.Word) bool {
	if len(w.Parts) == 1 {
		if p, ok := w.Parts[0].(*syntax.ParamExp); ok && p.Param != nil && p.Index == nil &&
			!p.Excl && p.Exp == nil && p.Slice == nil && p.Repl == nil {
			switch p.Param.Value {
			case "#", "?", "$", "!":
				return true
			}
		}
	}
	v, ok := literalWord(w)
	return ok && isArithNumber(v)
}

// isArithNumber reports whether s is a number as bash arithmetic reads
// it: decimal, octal, 0x hexadecimal or base#digits.
func isArithNumber(s string) bool {
	if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		return h != "" && strings.Trim(h, "0123456789abcdef") == ""
	}
	base, digits, hasBase := strings.Cut(s, "#")
	if !hasBase {
		return isNumber(s)
	}
	const digitSet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@_"
	return isNumber(base) && digits != "" && strings.Trim(digits, digitSet) == ""
}

// isName reports whether s is a plain variable name.
func isName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == ""
}

// excerpt returns the source text of node n in src.
func excerpt(src string, n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(src) || start >= end {
		return "?"
	}
	return src[start:end]
}
