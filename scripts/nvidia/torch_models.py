"""The transformer and CNN models of the NVIDIA benchmark, built the same way wherever they
are built (torch 2.11 and transformers on the GPU machine): GPT-2-, Llama-, ViT- and BERT-
style models from small configs with random weights (fixed seed), and a reduced ResNet-18.

build(name) returns (module, example_inputs(batch)): the same weights every time, so that
the exporter (make_models.py) and the benchmark (run_bundle.py) see one model.
"""
import torch

SEQ = 128
VOCAB = 1000


def _seeded():
    torch.manual_seed(20261201)


def _randomize(module):
    """Random biases and norm scales (zero or one by default), so that a compiler that drops
    one fails the comparison."""
    with torch.no_grad():
        for name, p in module.named_parameters():
            if name.endswith("bias") or "norm" in name.lower() or "ln" in name.lower():
                p.add_(0.1 * torch.randn_like(p))
    return module


def build(name):
    import transformers
    _seeded()
    if name == "gpt2":
        config = transformers.GPT2Config(n_embd=256, n_layer=2, n_head=4, vocab_size=VOCAB,
                                         n_positions=SEQ)
        model = transformers.GPT2Model(config)
        inputs = lambda b: (torch.randint(0, VOCAB, (b, SEQ)),)
    elif name == "llama":
        config = transformers.LlamaConfig(hidden_size=256, intermediate_size=688,
                                          num_hidden_layers=2, num_attention_heads=4,
                                          num_key_value_heads=2, vocab_size=VOCAB,
                                          max_position_embeddings=2 * SEQ)
        model = transformers.LlamaModel(config)
        inputs = lambda b: (torch.randint(0, VOCAB, (b, SEQ)),)
    elif name == "vit":
        config = transformers.ViTConfig(hidden_size=256, num_hidden_layers=2,
                                        num_attention_heads=4, intermediate_size=512,
                                        image_size=224, patch_size=16)
        model = transformers.ViTModel(config, add_pooling_layer=False)
        inputs = lambda b: (torch.randn(b, 3, 224, 224),)
    elif name == "bert":
        config = transformers.BertConfig(hidden_size=256, num_hidden_layers=2,
                                         num_attention_heads=4, intermediate_size=1024,
                                         vocab_size=VOCAB, max_position_embeddings=SEQ)
        model = transformers.BertModel(config, add_pooling_layer=False)
        inputs = lambda b: (torch.randint(0, VOCAB, (b, SEQ)),)
    else:
        raise ValueError("unknown model " + name)
    model.config.use_cache = False
    model.eval()
    _randomize(model)
    return Wrapped(model), inputs


class Wrapped(torch.nn.Module):
    """The model's last hidden state alone (one output, no cache)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        if x.dtype == torch.int64:
            return self.model(input_ids=x).last_hidden_state
        return self.model(pixel_values=x).last_hidden_state


NAMES = ["gpt2", "llama", "vit", "bert"]
