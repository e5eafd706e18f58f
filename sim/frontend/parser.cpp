#include "sim/frontend/parser.h"

#include "sim/frontend/lexer.h"

namespace ptosim::frontend {

const char* binop_symbol(BinOp op) {
  switch (op) {
    case BinOp::Add: return "+";
    case BinOp::Sub: return "-";
    case BinOp::Mul: return "*";
    case BinOp::Div: return "/";
    case BinOp::FloorDiv: return "//";
    case BinOp::Mod: return "%";
    case BinOp::Pow: return "**";
    case BinOp::MatMul: return "@";
  }
  return "?";
}

const char* cmpop_symbol(CmpOp op) {
  switch (op) {
    case CmpOp::Eq: return "==";
    case CmpOp::Ne: return "!=";
    case CmpOp::Lt: return "<";
    case CmpOp::Le: return "<=";
    case CmpOp::Gt: return ">";
    case CmpOp::Ge: return ">=";
    case CmpOp::Is: return "is";
    case CmpOp::IsNot: return "is not";
  }
  return "?";
}

namespace {

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::Name: return "name '" + t.text + "'";
    case Tok::Int: case Tok::Float: return "number " + t.text;
    case Tok::String: return "a string";
    case Tok::Indent: return "an unexpected indent";
    default: return tok_name(t.kind);
  }
}

class Parser {
 public:
  explicit Parser(std::vector<Token> toks) : t_(std::move(toks)) {}

  Module module() {
    Module m;
    while (peek().kind != Tok::End) {
      if (peek().kind == Tok::Newline) {
        next();
        continue;
      }
      if (peek().kind == Tok::Indent) fail(peek().pos, "unexpected indent");
      m.body.push_back(statement());
    }
    return m;
  }

 private:
  const Token& peek(int k = 0) const {
    size_t i = std::min(p_ + k, t_.size() - 1);
    return t_[i];
  }
  const Token& next() {
    const Token& t = t_[p_];
    if (p_ + 1 < t_.size()) ++p_;
    return t;
  }
  bool accept(Tok k) {
    if (peek().kind == k) {
      next();
      return true;
    }
    return false;
  }
  const Token& expect(Tok k, const char* what) {
    if (peek().kind != k) fail(peek().pos, std::string("expected ") + what + ", found " + describe(peek()));
    return next();
  }

  // ---- statements -------------------------------------------------------
  StmtP statement() {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::KwDef: return def_stmt();
      case Tok::KwFor: return for_stmt();
      case Tok::KwIf: return if_stmt();
      case Tok::KwWith: return with_stmt();
      case Tok::KwWhile:
        fail(t.pos, "'while' loops are not part of the PTO language; use 'for v in range(...)'");
      case Tok::KwClass: fail(t.pos, "'class' is not part of the PTO language");
      case Tok::KwElif: case Tok::KwElse:
        fail(t.pos, std::string(tok_name(t.kind)) + " without a matching 'if'");
      case Tok::Dedent: fail(t.pos, "unexpected dedent");
      default: break;
    }
    StmtP s = simple_stmt();
    end_of_statement();
    return s;
  }

  void end_of_statement() {
    if (peek().kind == Tok::Newline) {
      next();
      return;
    }
    fail(peek().pos, "expected end of line, found " + describe(peek()));
  }

  StmtP simple_stmt() {
    const Token& t = peek();
    Pos pos = t.pos;
    switch (t.kind) {
      case Tok::KwPass: next(); return std::make_unique<Stmt>(StmtKind::Pass, pos);
      case Tok::KwBreak: next(); return std::make_unique<Stmt>(StmtKind::Break, pos);
      case Tok::KwContinue: next(); return std::make_unique<Stmt>(StmtKind::Continue, pos);
      case Tok::KwReturn: {
        next();
        auto s = std::make_unique<Stmt>(StmtKind::Return, pos);
        if (peek().kind != Tok::Newline) s->value = expr_list();
        return s;
      }
      case Tok::KwAssert: {
        next();
        auto s = std::make_unique<Stmt>(StmtKind::Assert, pos);
        s->value = test();
        if (accept(Tok::Comma)) s->message = test();
        return s;
      }
      case Tok::KwImport: return import_stmt();
      case Tok::Name:
        if (t.text == "param" && peek(1).kind == Tok::Name) return param_stmt();
        break;
      default: break;
    }
    return expr_stmt();
  }

  // `import pto`, or the article's `import pypto as pto`: accepted so that a
  // program can also be valid Python; any other module or alias has nothing
  // to bind, so it is refused.
  StmtP import_stmt() {
    Pos pos = next().pos;
    const Token& n = expect(Tok::Name, "a module name");
    if (n.text != "pto" && n.text != "pypto")
      fail(n.pos, "only 'import pto' and 'import pypto as pto' are supported (no module named '" + n.text + "')");
    if (peek().kind == Tok::Name && peek().text == "as") {
      next();
      const Token& alias = expect(Tok::Name, "a name after 'as'");
      if (alias.text != "pto") fail(alias.pos, "the module must be imported as 'pto' (the program refers to it as pto.X)");
    } else if (n.text != "pto") {
      fail(n.pos, "write 'import pypto as pto': the program refers to the module as pto");
    }
    return std::make_unique<Stmt>(StmtKind::Import, pos);
  }

  StmtP param_stmt() {
    Pos pos = next().pos;
    const Token& n = next();
    auto s = std::make_unique<Stmt>(StmtKind::Param, pos);
    s->name = n.text;
    s->name_pos = n.pos;
    expect(Tok::Assign, "'=' after the parameter name (param NAME = default)");
    s->value = test();
    return s;
  }

  static bool aug_op(Tok k, BinOp& op) {
    switch (k) {
      case Tok::PlusAssign: op = BinOp::Add; return true;
      case Tok::MinusAssign: op = BinOp::Sub; return true;
      case Tok::StarAssign: op = BinOp::Mul; return true;
      case Tok::SlashAssign: op = BinOp::Div; return true;
      case Tok::SlashSlashAssign: op = BinOp::FloorDiv; return true;
      case Tok::PercentAssign: op = BinOp::Mod; return true;
      case Tok::StarStarAssign: op = BinOp::Pow; return true;
      default: return false;
    }
  }

  void check_target(const Expr& e, bool allow_tuple) {
    switch (e.kind) {
      case ExprKind::Name: return;
      case ExprKind::Subscript: return;
      case ExprKind::Tuple: case ExprKind::List:
        if (!allow_tuple) fail(e.pos, "cannot use augmented assignment on a tuple");
        for (auto& i : e.items) check_target(*i, true);
        return;
      case ExprKind::Attribute: fail(e.pos, "cannot assign to attribute '" + e.name + "'");
      case ExprKind::Call: fail(e.pos, "cannot assign to a function call");
      default: fail(e.pos, "cannot assign to an expression");
    }
  }

  StmtP expr_stmt() {
    Pos pos = peek().pos;
    ExprP first = expr_list();
    BinOp op;
    if (aug_op(peek().kind, op)) {
      next();
      check_target(*first, false);
      auto s = std::make_unique<Stmt>(StmtKind::AugAssign, pos);
      s->bop = op;
      s->target = std::move(first);
      s->value = test();
      return s;
    }
    if (peek().kind == Tok::Assign) {
      std::vector<ExprP> chain;
      chain.push_back(std::move(first));
      while (accept(Tok::Assign)) chain.push_back(expr_list());
      auto s = std::make_unique<Stmt>(StmtKind::Assign, pos);
      s->value = std::move(chain.back());
      chain.pop_back();
      for (auto& c : chain) check_target(*c, true);
      s->target = std::move(chain.back());
      chain.pop_back();
      s->targets = std::move(chain);
      return s;
    }
    auto s = std::make_unique<Stmt>(StmtKind::ExprStmt, pos);
    s->value = std::move(first);
    return s;
  }

  Block block() {
    expect(Tok::Colon, "':'");
    // Statements nest by recursion here and in everything that walks them.
    struct Nesting {
      int& n;
      Nesting(int& blocks, Pos pos) : n(blocks) {
        if (++n > 100) fail(pos, "too many levels of nested blocks (limit 100)");
      }
      ~Nesting() { --n; }
    } nesting(blocks_, peek().pos);
    Block b;
    if (peek().kind != Tok::Newline) {
      // One-line body: `if x: pass`
      b.push_back(simple_stmt());
      end_of_statement();
      return b;
    }
    next();
    if (peek().kind != Tok::Indent) fail(peek().pos, "expected an indented block");
    next();
    while (peek().kind != Tok::Dedent && peek().kind != Tok::End) {
      if (peek().kind == Tok::Newline) {
        next();
        continue;
      }
      if (peek().kind == Tok::Indent) fail(peek().pos, "unexpected indent");
      b.push_back(statement());
    }
    accept(Tok::Dedent);
    return b;
  }

  StmtP def_stmt() {
    Pos pos = next().pos;
    const Token& n = expect(Tok::Name, "a function name after 'def'");
    auto s = std::make_unique<Stmt>(StmtKind::Def, pos);
    s->name = n.text;
    s->name_pos = n.pos;
    expect(Tok::LParen, "'(' after the function name");
    bool seen_default = false, keyword_only = false;
    while (peek().kind != Tok::RParen) {
      if (!s->params.empty() && s->params.back().kwargs)
        fail(peek().pos, "no parameter may follow '**" + s->params.back().name + "'");
      if (peek().kind == Tok::Star) {
        // A bare `*`: the parameters after it are keyword-only.
        Pos star = next().pos;
        if (keyword_only) fail(star, "'*' may appear only once in the parameter list");
        if (peek().kind == Tok::Name) fail(peek().pos, "*args parameters are not supported (a bare '*' is)");
        keyword_only = true;
        if (!accept(Tok::Comma) || peek().kind == Tok::RParen) fail(star, "named arguments must follow bare '*'");
        continue;
      }
      bool kwargs = accept(Tok::StarStar);
      const Token& pn = expect(Tok::Name, "a parameter name");
      Param p;
      p.name = pn.text;
      p.pos = pn.pos;
      p.kwargs = kwargs;
      p.keyword_only = keyword_only;
      for (auto& q : s->params)
        if (q.name == p.name) fail(pn.pos, "duplicate parameter '" + p.name + "' in function definition");
      if (accept(Tok::Assign)) {
        if (kwargs) fail(pn.pos, "'**" + p.name + "' cannot have a default");
        p.default_value = test();
        seen_default = true;
      } else if (seen_default && !keyword_only && !kwargs) {
        fail(pn.pos, "parameter without a default follows parameter with a default");
      }
      s->params.push_back(std::move(p));
      if (!accept(Tok::Comma)) break;
    }
    expect(Tok::RParen, "')' or ',' in the parameter list");
    s->body = block();
    return s;
  }

  StmtP for_stmt() {
    Pos pos = next().pos;
    auto s = std::make_unique<Stmt>(StmtKind::For, pos);
    // The loop variable(s): names, possibly a tuple `for a, b in ...`.
    ExprP target = primary_name_target();
    if (peek().kind == Tok::Comma) {
      auto tup = std::make_unique<Expr>(ExprKind::Tuple, target->pos);
      tup->items.push_back(std::move(target));
      while (accept(Tok::Comma)) {
        if (peek().kind == Tok::KwIn) break;
        tup->items.push_back(primary_name_target());
      }
      target = std::move(tup);
    }
    s->target = std::move(target);
    expect(Tok::KwIn, "'in' after the loop variable");
    s->value = test();
    s->body = block();
    if (peek().kind == Tok::KwElse) fail(peek().pos, "'for ... else' is not supported");
    return s;
  }

  ExprP primary_name_target() {
    const Token& n = expect(Tok::Name, "a loop variable name");
    auto e = std::make_unique<Expr>(ExprKind::Name, n.pos);
    e->name = n.text;
    return e;
  }

  StmtP if_stmt() {
    Pos pos = next().pos;
    auto s = std::make_unique<Stmt>(StmtKind::If, pos);
    s->value = test();
    s->body = block();
    if (peek().kind == Tok::KwElif) {
      s->orelse.push_back(if_stmt());  // elif parses exactly like a nested if
    } else if (peek().kind == Tok::KwElse) {
      next();
      s->orelse = block();
    }
    return s;
  }

  StmtP with_stmt() {
    Pos pos = next().pos;
    auto s = std::make_unique<Stmt>(StmtKind::With, pos);
    do {
      s->items.push_back(test());
      if (peek().kind == Tok::Name && peek().text == "as")
        fail(peek().pos, "'with ... as' is not supported: scopes have no value");
    } while (accept(Tok::Comma));
    s->body = block();
    return s;
  }

  // ---- expressions ------------------------------------------------------
  // A comma-separated list at statement level becomes a tuple.
  ExprP expr_list() {
    ExprP first = test();
    if (peek().kind != Tok::Comma) return first;
    auto tup = std::make_unique<Expr>(ExprKind::Tuple, first->pos);
    tup->items.push_back(std::move(first));
    while (accept(Tok::Comma)) {
      if (!starts_expr(peek().kind)) break;
      tup->items.push_back(test());
    }
    return sealed(std::move(tup));
  }

  static bool starts_expr(Tok k) {
    switch (k) {
      case Tok::Name: case Tok::Int: case Tok::Float: case Tok::String: case Tok::KwTrue:
      case Tok::KwFalse: case Tok::KwNone: case Tok::LParen: case Tok::LBracket: case Tok::LBrace: case Tok::Minus:
      case Tok::Plus: case Tok::KwNot:
        return true;
      default:
        return false;
    }
  }

  // Bounds recursion so that pathological nesting is an error, not a stack overflow.
  struct DepthGuard {
    Parser& p;
    DepthGuard(Parser& parser, Pos pos) : p(parser) {
      if (++p.depth_ > 150) fail(pos, "expression nested too deeply (limit 150)");
    }
    ~DepthGuard() { --p.depth_; }
  };

  // The compiler, the interpreter and the tree's destructor recurse over an
  // expression's height, which chains (`a+b+c...`, `f(1)(2)...`, `x[0][0]...`)
  // grow without recursing here: each node built is measured as it is
  // finished, its children first.
  static constexpr uint32_t kMaxHeight = 1000;
  static void seal(Expr& e) {
    uint32_t h = 0;
    for (const ExprP& c : e.items)
      if (c) h = std::max(h, c->height);
    for (const Keyword& k : e.keywords) h = std::max(h, k.value->height);
    if (e.object) h = std::max(h, e.object->height);
    e.height = h + 1;
    if (e.height > kMaxHeight) fail(e.pos, "expression too long or nested too deeply (limit 1000 levels)");
  }
  static ExprP sealed(ExprP e) {
    seal(*e);
    return e;
  }

  ExprP test() {
    DepthGuard g(*this, peek().pos);
    ExprP e = or_test();
    if (peek().kind == Tok::KwIf) {
      Pos pos = next().pos;
      auto c = std::make_unique<Expr>(ExprKind::IfElse, pos);
      ExprP cond = or_test();
      expect(Tok::KwElse, "'else' in conditional expression");
      ExprP other = test();
      c->items.push_back(std::move(cond));
      c->items.push_back(std::move(e));
      c->items.push_back(std::move(other));
      return sealed(std::move(c));
    }
    return e;
  }

  ExprP or_test() {
    ExprP e = and_test();
    while (peek().kind == Tok::KwOr) {
      Pos pos = next().pos;
      auto b = std::make_unique<Expr>(ExprKind::Or, pos);
      b->items.push_back(std::move(e));
      b->items.push_back(and_test());
      e = sealed(std::move(b));
    }
    return e;
  }

  ExprP and_test() {
    ExprP e = not_test();
    while (peek().kind == Tok::KwAnd) {
      Pos pos = next().pos;
      auto b = std::make_unique<Expr>(ExprKind::And, pos);
      b->items.push_back(std::move(e));
      b->items.push_back(not_test());
      e = sealed(std::move(b));
    }
    return e;
  }

  ExprP not_test() {
    DepthGuard g(*this, peek().pos);
    if (peek().kind == Tok::KwNot) {
      Pos pos = next().pos;
      auto u = std::make_unique<Expr>(ExprKind::Unary, pos);
      u->uop = UnOp::Not;
      u->items.push_back(not_test());
      return sealed(std::move(u));
    }
    return comparison();
  }

  bool cmp_op(CmpOp& op) {
    switch (peek().kind) {
      case Tok::Eq: op = CmpOp::Eq; break;
      case Tok::Ne: op = CmpOp::Ne; break;
      case Tok::Lt: op = CmpOp::Lt; break;
      case Tok::Le: op = CmpOp::Le; break;
      case Tok::Gt: op = CmpOp::Gt; break;
      case Tok::Ge: op = CmpOp::Ge; break;
      case Tok::KwIs:
        next();
        op = accept(Tok::KwNot) ? CmpOp::IsNot : CmpOp::Is;
        return true;
      default: return false;
    }
    next();
    return true;
  }

  ExprP comparison() {
    ExprP first = arith();
    if (!is_cmp(peek().kind)) return first;
    auto c = std::make_unique<Expr>(ExprKind::Compare, first->pos);
    c->items.push_back(std::move(first));
    CmpOp op;
    while (cmp_op(op)) {
      c->cmps.push_back(op);
      c->items.push_back(arith());
    }
    return sealed(std::move(c));
  }
  static bool is_cmp(Tok k) {
    return k == Tok::Eq || k == Tok::Ne || k == Tok::Lt || k == Tok::Le || k == Tok::Gt || k == Tok::Ge ||
           k == Tok::KwIs;
  }

  ExprP binary(ExprP l, BinOp op, Pos pos, ExprP r) {
    auto b = std::make_unique<Expr>(ExprKind::Binary, pos);
    b->bop = op;
    b->items.push_back(std::move(l));
    b->items.push_back(std::move(r));
    return sealed(std::move(b));
  }

  ExprP arith() {
    ExprP e = term();
    while (peek().kind == Tok::Plus || peek().kind == Tok::Minus) {
      const Token& t = next();
      BinOp op = t.kind == Tok::Plus ? BinOp::Add : BinOp::Sub;
      Pos pos = t.pos;
      e = binary(std::move(e), op, pos, term());
    }
    return e;
  }

  ExprP term() {
    ExprP e = factor();
    while (true) {
      BinOp op;
      switch (peek().kind) {
        case Tok::Star: op = BinOp::Mul; break;
        case Tok::Slash: op = BinOp::Div; break;
        case Tok::SlashSlash: op = BinOp::FloorDiv; break;
        case Tok::Percent: op = BinOp::Mod; break;
        case Tok::At: op = BinOp::MatMul; break;
        default: return e;
      }
      Pos pos = next().pos;
      e = binary(std::move(e), op, pos, factor());
    }
  }

  ExprP factor() {
    DepthGuard g(*this, peek().pos);
    if (peek().kind == Tok::Minus || peek().kind == Tok::Plus) {
      const Token& t = next();
      auto u = std::make_unique<Expr>(ExprKind::Unary, t.pos);
      u->uop = t.kind == Tok::Minus ? UnOp::Neg : UnOp::Pos;
      ExprP operand = factor();
      // Fold `-3` into a literal so that constants stay constants.
      if (u->uop == UnOp::Neg && operand->kind == ExprKind::Int && operand->ival != INT64_MIN) {
        operand->ival = -operand->ival;
        operand->pos = t.pos;
        return operand;
      }
      if (u->uop == UnOp::Neg && operand->kind == ExprKind::Float) {
        operand->fval = -operand->fval;
        operand->pos = t.pos;
        return operand;
      }
      u->items.push_back(std::move(operand));
      return sealed(std::move(u));
    }
    return power();
  }

  ExprP power() {
    ExprP base = primary();
    if (peek().kind == Tok::StarStar) {
      Pos pos = next().pos;
      return binary(std::move(base), BinOp::Pow, pos, factor());  // right-assoc, binds tighter than unary on the left
    }
    return base;
  }

  ExprP primary() {
    ExprP e = atom();
    while (true) {
      if (peek().kind == Tok::Dot) {
        next();
        const Token& n = expect(Tok::Name, "an attribute name after '.'");
        auto a = std::make_unique<Expr>(ExprKind::Attribute, n.pos);
        a->name = n.text;
        a->object = std::move(e);
        e = sealed(std::move(a));
      } else if (peek().kind == Tok::LParen) {
        e = call(std::move(e));
      } else if (peek().kind == Tok::LBracket) {
        e = subscript(std::move(e));
      } else {
        return e;
      }
    }
  }

  ExprP call(ExprP callee) {
    Pos pos = next().pos;  // '('
    (void)pos;
    auto c = std::make_unique<Expr>(ExprKind::Call, start_pos(*callee));
    c->object = std::move(callee);
    while (peek().kind != Tok::RParen) {
      if (peek().kind == Tok::Name && peek(1).kind == Tok::Assign) {
        const Token& n = next();
        next();
        for (auto& k : c->keywords)
          if (k.name == n.text) fail(n.pos, "keyword argument '" + n.text + "' repeated");
        Keyword kw;
        kw.name = n.text;
        kw.pos = n.pos;
        kw.value = test();
        c->keywords.push_back(std::move(kw));
      } else if (peek().kind == Tok::StarStar) {
        // `**d`: d's entries are keywords (an empty name marks it).
        Keyword kw;
        kw.pos = next().pos;
        kw.value = test();
        c->keywords.push_back(std::move(kw));
      } else {
        if (peek().kind == Tok::Star) fail(peek().pos, "argument unpacking (*args) is not supported (**kwargs is)");
        if (!c->keywords.empty()) fail(peek().pos, "positional argument follows keyword argument");
        c->items.push_back(test());
      }
      if (!accept(Tok::Comma)) break;
    }
    expect(Tok::RParen, "')' or ',' in the argument list");
    return sealed(std::move(c));
  }

  static Pos start_pos(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Attribute: case ExprKind::Call: case ExprKind::Subscript: return start_pos(*e.object);
      case ExprKind::Binary: case ExprKind::Compare: case ExprKind::And: case ExprKind::Or:
        return start_pos(*e.items[0]);
      default: return e.pos;
    }
  }

  ExprP subscript(ExprP obj) {
    Pos pos = next().pos;  // '['
    auto s = std::make_unique<Expr>(ExprKind::Subscript, pos);
    s->object = std::move(obj);
    if (peek().kind == Tok::RBracket) fail(peek().pos, "empty subscript");
    while (peek().kind != Tok::RBracket) {
      s->items.push_back(subscript_item());
      if (!accept(Tok::Comma)) break;
    }
    expect(Tok::RBracket, "']' or ',' in the subscript");
    return sealed(std::move(s));
  }

  ExprP subscript_item() {
    Pos pos = peek().pos;
    ExprP start;
    if (peek().kind != Tok::Colon) {
      start = test();
      if (peek().kind != Tok::Colon) return start;
    }
    next();  // ':'
    auto sl = std::make_unique<Expr>(ExprKind::Slice, pos);
    ExprP stop, step;
    if (peek().kind != Tok::Colon && peek().kind != Tok::Comma && peek().kind != Tok::RBracket) stop = test();
    if (accept(Tok::Colon)) {
      if (peek().kind != Tok::Comma && peek().kind != Tok::RBracket) step = test();
    }
    sl->items.push_back(std::move(start));
    sl->items.push_back(std::move(stop));
    sl->items.push_back(std::move(step));
    return sealed(std::move(sl));
  }

  ExprP atom() {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::Name: {
        next();
        auto e = std::make_unique<Expr>(ExprKind::Name, t.pos);
        e->name = t.text;
        return e;
      }
      case Tok::Int: {
        next();
        auto e = std::make_unique<Expr>(ExprKind::Int, t.pos);
        e->ival = t.ival;
        return e;
      }
      case Tok::Float: {
        next();
        auto e = std::make_unique<Expr>(ExprKind::Float, t.pos);
        e->fval = t.fval;
        return e;
      }
      case Tok::String: {
        next();
        auto e = std::make_unique<Expr>(ExprKind::Str, t.pos);
        e->name = t.text;
        // Adjacent literals concatenate, as in Python.
        while (peek().kind == Tok::String) e->name += next().text;
        return e;
      }
      case Tok::KwTrue: case Tok::KwFalse: {
        next();
        auto e = std::make_unique<Expr>(ExprKind::Bool, t.pos);
        e->ival = t.kind == Tok::KwTrue;
        return e;
      }
      case Tok::KwNone: next(); return std::make_unique<Expr>(ExprKind::None, t.pos);
      case Tok::LParen: {
        Pos pos = next().pos;
        if (accept(Tok::RParen)) return std::make_unique<Expr>(ExprKind::Tuple, pos);
        ExprP first = test();
        if (peek().kind == Tok::Comma) {
          auto tup = std::make_unique<Expr>(ExprKind::Tuple, pos);
          tup->items.push_back(std::move(first));
          while (accept(Tok::Comma)) {
            if (peek().kind == Tok::RParen) break;
            tup->items.push_back(test());
          }
          first = sealed(std::move(tup));
        }
        expect(Tok::RParen, "')'");
        return first;
      }
      case Tok::LBracket: {
        Pos pos = next().pos;
        auto l = std::make_unique<Expr>(ExprKind::List, pos);
        while (peek().kind != Tok::RBracket) {
          l->items.push_back(test());
          if (peek().kind == Tok::KwFor) fail(peek().pos, "list comprehensions are not supported");
          if (!accept(Tok::Comma)) break;
        }
        expect(Tok::RBracket, "']' or ',' in the list");
        return sealed(std::move(l));
      }
      case Tok::LBrace: return dict_display();
      case Tok::KwLambda: fail(t.pos, "'lambda' is not part of the PTO language");
      case Tok::KwWhile: case Tok::KwClass: case Tok::KwDef: case Tok::KwFor: case Tok::KwIf:
      case Tok::KwWith: case Tok::KwReturn: case Tok::KwPass: case Tok::KwBreak: case Tok::KwContinue:
      case Tok::KwAssert: case Tok::KwImport: case Tok::KwIn: case Tok::KwElse: case Tok::KwElif:
        fail(t.pos, std::string("invalid syntax: unexpected keyword ") + tok_name(t.kind));
      case Tok::Newline: case Tok::End: fail(t.pos, "invalid syntax: expression expected at end of line");
      default: fail(t.pos, "invalid syntax: unexpected " + describe(t));
    }
  }

  // `{k: v, ...}`; a set display `{a, b}` is refused.
  ExprP dict_display() {
    Pos pos = next().pos;
    auto d = std::make_unique<Expr>(ExprKind::Dict, pos);
    while (peek().kind != Tok::RBrace) {
      ExprP key = test();
      if (peek().kind == Tok::KwFor) fail(peek().pos, "dict comprehensions are not supported");
      if (peek().kind != Tok::Colon) fail(key->pos, "set literals are not part of the PTO language (a dict needs key: value)");
      next();
      d->items.push_back(std::move(key));
      d->items.push_back(test());
      if (peek().kind == Tok::KwFor) fail(peek().pos, "dict comprehensions are not supported");
      if (!accept(Tok::Comma)) break;
    }
    expect(Tok::RBrace, "'}' or ',' in the dict");
    return sealed(std::move(d));
  }

  std::vector<Token> t_;
  size_t p_ = 0;
  int depth_ = 0;
  int blocks_ = 0;
};

}  // namespace

Module parse_program(const std::string& text) { return Parser(tokenize(text)).module(); }

}  // namespace ptosim::frontend
