#include "conformance/framework/ref_args.h"

#include "sdk/core/error.h"

namespace bp::conformance {

RefArgs::RefArgs(const Sample& sample) : sample_(&sample) {
  for (const SampleArg& a : sample.args) {
    if (const auto* t = std::get_if<TensorArg>(&a.value)) tensors_[a.name] = read_tensor(t->host);
  }
}

bool RefArgs::has(const std::string& name) const { return sample_->find(name) != nullptr; }

const RefTensor& RefArgs::tensor(const std::string& name) const {
  auto it = tensors_.find(name);
  BP_INTERNAL_ASSERT(it != tensors_.end(), "the sample has no tensor argument '", name, "'");
  return it->second;
}

const RefTensor* RefArgs::optional_tensor(const std::string& name) const {
  auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

const Tensor& RefArgs::host(const std::string& name) const {
  const SampleArg* a = sample_->find(name);
  BP_INTERNAL_ASSERT(a != nullptr && std::holds_alternative<TensorArg>(a->value),
                     "the sample has no tensor argument '", name, "'");
  return std::get<TensorArg>(a->value).host;
}

const std::vector<Tensor>& RefArgs::host_list(const std::string& name) const {
  const SampleArg* a = sample_->find(name);
  BP_INTERNAL_ASSERT(a != nullptr && std::holds_alternative<TensorListArg>(a->value),
                     "the sample has no tensor list argument '", name, "'");
  return std::get<TensorListArg>(a->value).host;
}

bool RefArgs::on_host(const std::string& name) const {
  const SampleArg* a = sample_->find(name);
  const auto* t = a == nullptr ? nullptr : std::get_if<TensorArg>(&a->value);
  return t != nullptr && t->keep_on_host;
}

OperandKind RefArgs::operand_kind(const std::string& name) const {
  const Tensor& t = host(name);
  if (t.is_wrapped_number()) return OperandKind::kWrappedScalar;
  return t.dim() == 0 ? OperandKind::kZeroDimTensor : OperandKind::kTensor;
}

const Value* RefArgs::value(const std::string& name) const {
  const SampleArg* a = sample_->find(name);
  if (a == nullptr) return nullptr;
  const Value* v = std::get_if<Value>(&a->value);
  BP_INTERNAL_ASSERT(v != nullptr, "argument '", name, "' is not a plain value");
  return v;
}

Scalar RefArgs::given_scalar(const std::string& name) const {
  const Value* v = value(name);
  BP_INTERNAL_ASSERT(v != nullptr && !v->is_none(), "the sample has no Scalar argument '", name,
                     "'");
  return v->to<Scalar>();
}

std::optional<ScalarArg> RefArgs::optional_scalar(const std::string& name) const {
  const Value* v = value(name);
  if (v == nullptr || v->is_none()) return std::nullopt;
  const Scalar s = v->to<Scalar>();
  switch (s.type()) {
    case ScalarType::kBool:
      return ScalarArg::boolean(s.to<bool>());
    case ScalarType::kInt64:
      return ScalarArg::integer(s.to<int64_t>());
    case ScalarType::kFloat64:
      return ScalarArg::real(s.to<double>());
    default: {
      const complex<double> z = s.to<complex<double>>();
      return ScalarArg{from_complex(cd(z.real(), z.imag())), ScalarType::kComplex128};
    }
  }
}

ScalarArg RefArgs::scalar(const std::string& name, ScalarArg fallback) const {
  return optional_scalar(name).value_or(fallback);
}

int64_t RefArgs::integer(const std::string& name, int64_t fallback) const {
  return optional_integer(name).value_or(fallback);
}

std::optional<int64_t> RefArgs::optional_integer(const std::string& name) const {
  const Value* v = value(name);
  if (v == nullptr || v->is_none()) return std::nullopt;
  return v->to<int64_t>();
}

bool RefArgs::boolean(const std::string& name, bool fallback) const {
  const Value* v = value(name);
  return v == nullptr ? fallback : v->to<bool>();
}

std::optional<double> RefArgs::optional_real(const std::string& name) const {
  const Value* v = value(name);
  if (v == nullptr || v->is_none()) return std::nullopt;
  if (v->tag() == Value::Tag::kInt) return static_cast<double>(v->to<int64_t>());
  return v->to<double>();
}

std::vector<int64_t> RefArgs::ints(const std::string& name, std::vector<int64_t> fallback) const {
  return optional_ints(name).value_or(std::move(fallback));
}

std::optional<std::vector<int64_t>> RefArgs::optional_ints(const std::string& name) const {
  const Value* v = value(name);
  if (v == nullptr || v->is_none()) return std::nullopt;
  if (v->tag() == Value::Tag::kInt) return std::vector<int64_t>{v->to<int64_t>()};
  return v->ref<std::vector<int64_t>>();
}

std::optional<std::string> RefArgs::string(const std::string& name) const {
  const Value* v = value(name);
  if (v == nullptr || v->is_none()) return std::nullopt;
  return v->ref<std::string>();
}

std::optional<ScalarType> RefArgs::dtype(const std::string& name) const {
  const Value* v = value(name);
  if (v == nullptr || v->is_none()) return std::nullopt;
  return v->ref<ScalarType>();
}

std::optional<MemoryFormat> RefArgs::memory_format(const std::string& name) const {
  const Value* v = value(name);
  if (v == nullptr || v->is_none()) return std::nullopt;
  return v->ref<MemoryFormat>();
}

}  // namespace bp::conformance
