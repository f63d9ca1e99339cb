//===- EvaluateStrings.cpp - reference semantics of the string primitives -------------===//
//
// prim.format, prim.parse, prim.change_case and prim.string_in with the semantics that
// model_abi.h gives the runtime's string functions (which compiled code calls per element),
// written anew here: the compiler shares no code with the runtime.
//
// - format: integers in decimal, i1 as "True"/"False", floats as NumPy's str() writes a
//   scalar of their type: the fewest significant digits that read back as the same value of
//   that type (of those, the nearest decimal), positional for 1e-4 <= |x| < 1e16 with ".0"
//   when integral, else scientific ("1e-05", "1.5e+16"); "nan", "inf", "-inf", "-0.0".
// - parse: white space around the text is allowed; integers in decimal, range-checked
//   (a float text for an integer type is an error); "True"/"False"/"1"/"0" (any case) for
//   i1; floats as plain decimal or scientific numbers, rounded once to the result's type,
//   or "NaN", "INF", "+INF", "-INF" (any case; "infinity" too). A text that is none of these
//   is an evaluation error that quotes it.
// - change_case: UTF-8 code point by code point, with C.UTF-8's towupper / towlower (ASCII
//   letters only where that locale is missing); bytes that are not valid UTF-8 stay as they
//   are.
// - string_in: byte equality with one of the set's texts; with ignore_case, equality of
//   both sides' lower-cased code points.
//
//===----------------------------------------------------------------------------------===//
#include "EvaluateOps.h"

#include "dialects/prim/PrimDialect.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <regex>

#include <charconv>
#include <clocale>
#include <cmath>
#include <locale.h>
#include <wctype.h>

using namespace mlir;
using namespace tcc::eval;
using namespace tcc::eval::detail;
namespace prim = tcc::prim;

namespace {

//===----------------------------------------------------------------------------------===//
// format
//===----------------------------------------------------------------------------------===//

/// A decimal of digits.size() significant digits: (-)d.ddd * 10^exponent.
struct Decimal {
  bool negative = false;
  std::string digits;
  int exponent = 0;

  /// `value` correctly rounded to `count` significant digits.
  static Decimal of(double value, int count) {
    char buffer[64];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                   std::chars_format::scientific, count - 1);
    (void)ec; // 64 bytes hold any double at 17 digits
    llvm::StringRef text(buffer, end - buffer);
    Decimal d;
    d.negative = text.consume_front("-");
    auto [mantissa, exponent] = text.split('e');
    for (char c : mantissa)
      if (llvm::isDigit(c))
        d.digits += c;
    exponent.consume_front("+");
    (void)exponent.getAsInteger(10, d.exponent);
    return d;
  }

  /// The decimal one unit in the last digit away from zero (up) or toward it (down), with
  /// as many digits (9.99 + 1 = 1.00e+1, 1.00 - 1 = 9.99e-1).
  Decimal step(bool up) const {
    Decimal d = *this;
    char wrap = up ? '9' : '0';
    size_t i = d.digits.size();
    while (i > 0 && d.digits[i - 1] == wrap)
      d.digits[--i] = up ? '0' : '9';
    if (i > 0)
      d.digits[i - 1] += up ? 1 : -1;
    if (d.digits[0] == '0') { // a carry out of, or a borrow from, the leading digit
      d.digits[0] = up ? '1' : '9';
      d.exponent += up ? 1 : -1;
    }
    return d;
  }

  /// "-1.5e-07": C's %e form (at least two exponent digits).
  std::string scientific() const {
    std::string text = negative ? "-" : "";
    text += digits[0];
    if (digits.size() > 1)
      text += "." + digits.substr(1);
    char exponentText[16];
    std::snprintf(exponentText, sizeof(exponentText), "e%c%02d", exponent < 0 ? '-' : '+',
                  std::abs(exponent));
    return text + exponentText;
  }

  /// "-0.00015", "100.0": the digits without a trailing zero, placed by the exponent.
  std::string positional() const {
    std::string kept = digits;
    while (kept.size() > 1 && kept.back() == '0')
      kept.pop_back();
    std::string text = negative ? "-" : "";
    int count = static_cast<int>(kept.size());
    if (exponent < 0)
      return text + "0." + std::string(-exponent - 1, '0') + kept;
    if (count <= exponent + 1)
      return text + kept + std::string(exponent + 1 - count, '0') + ".0";
    return text + kept.substr(0, exponent + 1) + "." + kept.substr(exponent + 1);
  }
};

/// Whether the decimal `text` rounds (to nearest even, once) to exactly `value`.
bool readsBack(const std::string &text, const llvm::APFloat &value) {
  llvm::APFloat parsed(value.getSemantics());
  auto status = parsed.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    return false;
  }
  return parsed.bitwiseIsEqual(value);
}

/// A float of `type` (exactly `v`) as NumPy's str() writes it.
std::string formatFloat(double v, Type type) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  if (v == 0)
    return std::signbit(v) ? "-0.0" : "0.0";
  llvm::APFloat value(v);
  bool losesInfo = false;
  value.convert(cast<FloatType>(type).getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo); // exact: v is a value of the type
  // The values that read back as `value` form an interval around it. If the nearest
  // `count`-digit decimal is outside, a decimal of as many digits inside it can only be the
  // nearest one's neighbour on the other side of `value` (at a power of two, where the
  // interval reaches twice as far above as below).
  Decimal chosen;
  for (int count = 1; count <= 17; ++count) {
    Decimal nearest = Decimal::of(v, count);
    chosen = nearest;
    if (readsBack(nearest.scientific(), value))
      break;
    Decimal up = nearest.step(true), down = nearest.step(false);
    if (readsBack(up.scientific(), value)) {
      chosen = up;
      break;
    }
    if (readsBack(down.scientific(), value)) {
      chosen = down;
      break;
    }
  }
  double magnitude = std::fabs(v);
  return magnitude >= 1e-4 && magnitude < 1e16 ? chosen.positional() : chosen.scientific();
}

std::string formatElement(const Tensor &x, int64_t i) {
  Type type = x.elementType;
  if (isa<FloatType>(type))
    return formatFloat(x.getDouble(i), type);
  if (type.isInteger(1))
    return x.getInt(i) ? "True" : "False";
  if (isUnsignedElement(type))
    return std::to_string(static_cast<uint64_t>(x.getInt(i)));
  return std::to_string(x.getInt(i));
}

llvm::Expected<Results> format(prim::FormatOp op, const Environment &env) {
  const Tensor &x = env.get(op.getOperand());
  llvm::Expected<Tensor> result = makeTensor(getResultElementType(op), x.shape);
  if (!result)
    return result.takeError();
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
    result->strings[i] = formatElement(x, i);
  return Results{std::move(*result)};
}

//===----------------------------------------------------------------------------------===//
// parse
//===----------------------------------------------------------------------------------===//

/// Whether `s` is [+-]digits[.digits][(e|E)[+-]digits] or [+-][digits].digits[...]: a plain
/// decimal number (no hex floats, no "nan(...)").
bool isDecimalNumber(llvm::StringRef s) {
  if (!s.empty() && (s.front() == '+' || s.front() == '-'))
    s = s.drop_front();
  size_t before = s.size();
  s = s.drop_while(llvm::isDigit);
  size_t digits = before - s.size();
  if (s.consume_front(".")) {
    size_t fraction = s.size();
    s = s.drop_while(llvm::isDigit);
    digits += fraction - s.size();
  }
  if (digits == 0)
    return false;
  if (s.consume_front("e") || s.consume_front("E")) {
    if (!s.empty() && (s.front() == '+' || s.front() == '-'))
      s = s.drop_front();
    if (s.empty() || !llvm::isDigit(s.front()))
      return false;
    s = s.drop_while(llvm::isDigit);
  }
  return s.empty();
}

std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

/// The error for `text` (quoted, escaped, its first 40 bytes) that is not a `type`.
llvm::Error parseError(llvm::StringRef text, Type type, bool outOfRange) {
  std::string quoted;
  llvm::raw_string_ostream os(quoted);
  llvm::printEscapedString(text.take_front(40), os);
  if (text.size() > 40)
    os << "...";
  std::string what = "the string '" + quoted + "' ";
  if (outOfRange)
    return makeError(what + "is outside the range of " + typeName(type));
  if (type.isInteger(1))
    return makeError(what + "is not a bool (True, False, 1 or 0)");
  return makeError(what + "is not a number of type " + typeName(type));
}

/// Stores the number `text` spells into element `i` of `result`.
llvm::Error parseElement(llvm::StringRef text, Tensor &result, int64_t i) {
  Type type = result.elementType;
  llvm::StringRef s = text.trim(" \t\n\v\f\r");
  if (s.contains('\0'))
    return parseError(text, type, false);

  if (type.isInteger(1)) {
    if (s.equals_insensitive("true") || s == "1")
      result.setInt(i, 1);
    else if (s.equals_insensitive("false") || s == "0")
      result.setInt(i, 0);
    else
      return parseError(text, type, false);
    return llvm::Error::success();
  }

  if (!isa<FloatType>(type)) {
    unsigned width = getIntegerWidth(type);
    bool isUnsigned = isUnsignedElement(type);
    uint64_t maxPositive = isUnsigned ? truncateToWidth(~uint64_t(0), width)
                                      : truncateToWidth(~uint64_t(0), width - 1);
    uint64_t maxNegative = isUnsigned ? 0 : maxPositive + 1;
    llvm::StringRef p = s;
    bool negative = p.starts_with("-");
    if (p.starts_with("-") || p.starts_with("+"))
      p = p.drop_front();
    if (p.empty() || !llvm::all_of(p, llvm::isDigit))
      return parseError(text, type, false);
    uint64_t magnitude = 0;
    bool overflow = false;
    for (char c : p)
      overflow |= __builtin_mul_overflow(magnitude, 10u, &magnitude) ||
                  __builtin_add_overflow(magnitude, static_cast<uint64_t>(c - '0'), &magnitude);
    if (overflow || magnitude > (negative ? maxNegative : maxPositive)) // "-0" is fine
      return parseError(text, type, true);
    result.setInt(i, static_cast<int64_t>(negative ? uint64_t(0) - magnitude : magnitude));
    return llvm::Error::success();
  }

  const llvm::fltSemantics &semantics = cast<FloatType>(type).getFloatSemantics();
  bool negative = s.starts_with("-");
  llvm::StringRef word = s.starts_with("-") || s.starts_with("+") ? s.drop_front() : s;
  llvm::APFloat value(semantics);
  if (word.equals_insensitive("nan")) {
    value = llvm::APFloat::getNaN(semantics, negative);
  } else if (word.equals_insensitive("inf") || word.equals_insensitive("infinity")) {
    value = llvm::APFloat::getInf(semantics, negative);
  } else if (isDecimalNumber(s)) {
    auto status = value.convertFromString(s, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return parseError(text, type, false);
    }
  } else {
    return parseError(text, type, false);
  }
  storeBits(result, i, value.bitcastToAPInt().getZExtValue());
  return llvm::Error::success();
}

llvm::Expected<Results> parse(prim::ParseOp op, const Environment &env) {
  const Tensor &x = env.get(op.getOperand());
  llvm::Expected<Tensor> result = makeTensor(getResultElementType(op), x.shape);
  if (!result)
    return result.takeError();
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
    if (llvm::Error error = parseElement(x.strings[i], *result, i))
      return makeError("element " + llvm::Twine(i) + ": " + llvm::toString(std::move(error)));
  return Results{std::move(*result)};
}

//===----------------------------------------------------------------------------------===//
// change_case and string_in
//===----------------------------------------------------------------------------------===//

/// Decoded values from here up stand for a byte that is not valid UTF-8 (kRawByte | byte).
constexpr uint32_t kRawByte = 0x110000;

/// The code points of `text`; a byte that does not start a valid UTF-8 sequence (a bad lead
/// or continuation, overlong, a surrogate, beyond U+10FFFF, cut short) decodes alone as
/// kRawByte | byte.
std::vector<uint32_t> decodeUtf8(llvm::StringRef text) {
  std::vector<uint32_t> values;
  auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  for (size_t i = 0; i < text.size();) {
    uint32_t lead = byte(i);
    size_t count = lead < 0x80 ? 1 : lead >= 0xC2 && lead <= 0xDF ? 2
                                 : lead >= 0xE0 && lead <= 0xEF   ? 3
                                 : lead >= 0xF0 && lead <= 0xF4   ? 4
                                                                  : 0;
    uint32_t code = count == 1 ? lead : lead & (0x7Fu >> count);
    bool valid = count != 0 && text.size() - i >= count;
    for (size_t k = 1; valid && k < count; ++k) {
      valid = (byte(i + k) & 0xC0) == 0x80;
      code = code << 6 | (byte(i + k) & 0x3F);
    }
    static constexpr uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
    valid = valid && code >= kMinimum[count] && code <= 0x10FFFF &&
            !(code >= 0xD800 && code <= 0xDFFF);
    values.push_back(valid ? code : kRawByte | lead);
    i += valid ? count : 1;
  }
  return values;
}

void appendUtf8(uint32_t value, std::string &out) {
  if (value >= kRawByte || value < 0x80) {
    out += static_cast<char>(value & 0xFF);
  } else if (value < 0x800) {
    out += static_cast<char>(0xC0 | value >> 6);
    out += static_cast<char>(0x80 | (value & 0x3F));
  } else if (value < 0x10000) {
    out += static_cast<char>(0xE0 | value >> 12);
    out += static_cast<char>(0x80 | (value >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (value & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | value >> 18);
    out += static_cast<char>(0x80 | (value >> 12 & 0x3F));
    out += static_cast<char>(0x80 | (value >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (value & 0x3F));
  }
}

/// C.UTF-8's character classes, or (locale_t)0 where the system does not have them.
locale_t caseLocale() {
  static locale_t locale = [] {
    locale_t made = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));
    return made ? made : newlocale(LC_CTYPE_MASK, "C.utf8", static_cast<locale_t>(0));
  }();
  return locale;
}

/// The upper or lower case of a decoded value (raw bytes stay).
uint32_t changeCase(uint32_t value, bool upper) {
  if (value < 0x80) {
    if (upper && value >= 'a' && value <= 'z')
      return value - 'a' + 'A';
    if (!upper && value >= 'A' && value <= 'Z')
      return value - 'A' + 'a';
    return value;
  }
  locale_t locale = caseLocale();
  if (value >= kRawByte || !locale)
    return value;
  wint_t mapped = upper ? towupper_l(static_cast<wint_t>(value), locale)
                        : towlower_l(static_cast<wint_t>(value), locale);
  if (mapped > 0x10FFFF || (mapped >= 0xD800 && mapped <= 0xDFFF))
    return value;
  return static_cast<uint32_t>(mapped);
}

std::vector<uint32_t> lowerCodePoints(llvm::StringRef text) {
  std::vector<uint32_t> values = decodeUtf8(text);
  for (uint32_t &v : values)
    v = changeCase(v, /*upper=*/false);
  return values;
}

llvm::Expected<Results> changeCaseOp(prim::ChangeCaseOp op, const Environment &env) {
  const Tensor &x = env.get(op.getOperand());
  llvm::Expected<Tensor> result = makeTensor(x.elementType, x.shape);
  if (!result)
    return result.takeError();
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
    for (uint32_t value : decodeUtf8(x.strings[i]))
      appendUtf8(changeCase(value, op.getUpper()), result->strings[i]);
  return Results{std::move(*result)};
}

llvm::Expected<Results> stringIn(prim::StringInOp op, const Environment &env) {
  const Tensor &x = env.get(op.getOperand());
  llvm::Expected<Tensor> result = makeTensor(getResultElementType(op), x.shape);
  if (!result)
    return result.takeError();
  bool ignoreCase = op.getIgnoreCase();
  std::vector<std::string> texts;
  std::vector<std::vector<uint32_t>> lowered;
  for (Attribute a : op.getSet()) {
    texts.push_back(cast<StringAttr>(a).getValue().str());
    if (ignoreCase)
      lowered.push_back(lowerCodePoints(texts.back()));
  }
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i) {
    bool found = ignoreCase ? llvm::is_contained(lowered, lowerCodePoints(x.strings[i]))
                            : llvm::is_contained(texts, x.strings[i]);
    result->setInt(i, found);
  }
  return Results{std::move(*result)};
}

// string_equal(a, b) = the same bytes; string_concat(a, b) = a's bytes then b's
llvm::Expected<Results> stringEqual(prim::StringEqualOp op, const Environment &env) {
  const Tensor &a = env.get(op.getLhs()), &b = env.get(op.getRhs());
  llvm::Expected<Tensor> result = makeTensor(getResultElementType(op), a.shape);
  if (!result)
    return result.takeError();
  for (int64_t i = 0, e = a.getNumElements(); i < e; ++i)
    result->setInt(i, a.strings[i] == b.strings[i]);
  return Results{std::move(*result)};
}

llvm::Expected<Results> stringConcat(prim::StringConcatOp op, const Environment &env) {
  const Tensor &a = env.get(op.getLhs()), &b = env.get(op.getRhs());
  llvm::Expected<Tensor> result = makeTensor(a.elementType, a.shape);
  if (!result)
    return result.takeError();
  for (int64_t i = 0, e = a.getNumElements(); i < e; ++i)
    result->strings[i] = a.strings[i] + b.strings[i];
  return Results{std::move(*result)};
}

// string_match(x, pattern) = all of x matches the pattern. The evaluator reads RE2's syntax
// with std::regex's ECMAScript grammar, which agrees on the constructs the runtime accepts
// (classes, \d \s \w \b, groups, alternation, repetition, lazy quantifiers); `.` is a
// byte here and a code point in the runtime, which only non-ASCII texts can tell apart.
llvm::Expected<Results> stringMatch(prim::StringMatchOp op, const Environment &env) {
  const Tensor &x = env.get(op.getOperand());
  llvm::Expected<Tensor> result = makeTensor(getResultElementType(op), x.shape);
  if (!result)
    return result.takeError();
  std::regex pattern;
  try {
    pattern = std::regex(op.getPattern().str(), std::regex::ECMAScript);
  } catch (const std::regex_error &e) {
    return makeError("RegexFullMatch: the pattern '" + op.getPattern().str() +
                     "' cannot be used: " + e.what());
  }
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
    result->setInt(i, std::regex_match(x.strings[i], pattern));
  return Results{std::move(*result)};
}

} // namespace

FamilyResult tcc::eval::detail::evaluateStringOp(Operation *op, const Environment &env) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case([&](prim::FormatOp typed) { return format(typed, env); })
      .Case([&](prim::ParseOp typed) { return parse(typed, env); })
      .Case([&](prim::ChangeCaseOp typed) { return changeCaseOp(typed, env); })
      .Case([&](prim::StringInOp typed) { return stringIn(typed, env); })
      .Case([&](prim::StringEqualOp typed) { return stringEqual(typed, env); })
      .Case([&](prim::StringConcatOp typed) { return stringConcat(typed, env); })
      .Case([&](prim::StringMatchOp typed) { return stringMatch(typed, env); })
      .Default(std::nullopt);
}
