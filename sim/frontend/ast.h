#pragma once
// The syntax tree produced by the parser. It is only walked once, by the
// compiler (compiler.cpp), which turns it into the executable closure tree.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/frontend/errors.h"

namespace ptosim::frontend {

enum class BinOp : uint8_t { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul };
enum class CmpOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Is, IsNot };
enum class UnOp : uint8_t { Neg, Pos, Not };

const char* binop_symbol(BinOp op);
const char* cmpop_symbol(CmpOp op);

struct Expr;
using ExprP = std::unique_ptr<Expr>;

enum class ExprKind : uint8_t {
  Int, Float, Str, Bool, None, Name, Attribute, Call, Subscript,
  Binary, Unary, Compare, And, Or, List, Tuple, IfElse, Slice,
  Dict,  // items: key, value, key, value, ...
};

struct Keyword {
  std::string name;  // "" : `**value`, a dict whose entries are the keywords
  Pos pos;
  ExprP value;
};

struct Expr {
  ExprKind kind;
  Pos pos;
  int64_t ival = 0;
  double fval = 0;
  std::string name;          // Name, Attribute (attribute name), Str (value)
  BinOp bop = BinOp::Add;
  UnOp uop = UnOp::Neg;
  std::vector<CmpOp> cmps;   // Compare: ops between items
  std::vector<ExprP> items;  // operands / elements / args / subscript indices / slice parts
  std::vector<Keyword> keywords;  // Call
  ExprP object;              // Attribute, Call (callee), Subscript
  // Slice: items = {start, stop, step}, each may be null.
  uint32_t height = 1;       // levels of the tree below and including this node (the parser bounds it)
  Expr(ExprKind k, Pos p) : kind(k), pos(p) {}
};

struct Stmt;
using StmtP = std::unique_ptr<Stmt>;
using Block = std::vector<StmtP>;

enum class StmtKind : uint8_t {
  Param, Assign, AugAssign, ExprStmt, For, If, Break, Continue, Pass, Def, Return, Assert, With, Import,
};

struct Param {
  std::string name;
  Pos pos;
  ExprP default_value;  // may be null
  bool keyword_only = false;  // after a bare `*`
  bool kwargs = false;        // `**name`: the keywords no other parameter takes
};

struct Stmt {
  StmtKind kind;
  Pos pos;
  std::string name;            // Param, Def
  Pos name_pos;
  ExprP target;                // Assign / AugAssign / For loop variable (Name or Tuple)
  std::vector<ExprP> targets;  // Assign chains `a = b = e`: all but the last target
  ExprP value;                 // Assign value, Param default, ExprStmt, Return, Assert cond, For iterable, If cond
  ExprP message;               // Assert
  BinOp bop = BinOp::Add;      // AugAssign
  std::vector<ExprP> items;    // With items
  std::vector<Param> params;   // Def
  Block body;
  Block orelse;                // If else branch (elif is a nested If)
  Stmt(StmtKind k, Pos p) : kind(k), pos(p) {}
};

struct Module {
  Block body;
};

}  // namespace ptosim::frontend
