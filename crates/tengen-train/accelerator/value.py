#!/usr/bin/env python3
"""Trains tengen's value network on an accelerator, from the games that
`tengen train value ... --export FILE` writes (tengen_train::export).

The network is tengen_mcts::value's, trained with batch normalisation that
is folded into the convolutions at the end, so the weights it writes are
read by tengen as they are (safetensors, named and laid out as burn names
and lays them out: linear weights [in, out]). The targets, losses and views
are tengen_train::value's: the winner, the ownership and the area margin
from the mover's side, under a random symmetry, one position in two with
the other player to move as if the mover had passed.

The games are replayed here, on the device, all at once (one board per
game, one move of every game per step, chains found by propagating the
smallest point of each); before it learns anything the replay is checked
against the positions tengen wrote into the file, and it stops on any
difference. The run lasts a given time: the learning rate falls along it,
the training and test positions are measured as it goes, and the weights
kept are those with the smallest test loss of the winner (a value network
trained on whole games memorises them: the test loss shows when).

Besides the weights it writes `probe.json`: positions of the test games and
what the network says of them, which tengen's tests read back through its
own network to prove the weights travelled intact.

Needs PyTorch (and safetensors); runs on a CPU too, slowly, for a check.
"""

import argparse
import contextlib
import json
import math
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

PLANES = 12
KOMI_SCALE = 10.0
SCORE_SCALE = 10.0
HEAD = 32
LOG_SPREAD = (-0.7, 5.3)
OWNER_WEIGHT = 10.0
MARGIN_VARIANCE = 100.0
MARGIN_WEIGHT = 0.05
SPREAD_WEIGHT = 0.02
BIG = 1 << 20


def log(*a):
    print(*a, flush=True)


# ---------------------------------------------------------------- the file


def read_games(path):
    """The arrays of an export, by name (see tengen_train::export)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"TGVG0001":
        sys.exit(f"{path}: not a tengen games file")
    (n,) = struct.unpack("<I", data[8:12])
    head = json.loads(data[12 : 12 + n])
    at = 12 + n
    g, m, c, p = head["games"], head["moves"], head["checks"], head["points"]

    def take(dtype, count, shape=None):
        nonlocal at
        a = np.frombuffer(data, dtype=dtype, count=count, offset=at)
        at += a.nbytes
        return a.reshape(shape) if shape else a

    out = dict(size=head["size"], points=p)
    out["split"] = take(np.uint8, g)
    out["area"] = take(np.uint8, g)
    out["winner"] = take(np.int8, g)
    out["kind"] = take(np.uint8, g)
    out["komi"] = take("<f4", g)
    out["margin"] = take("<f4", g)
    out["moves"] = take("<u4", g).astype(np.int64)
    out["initial"] = take(np.int8, g * p, (g, p))
    out["owner"] = take(np.int8, g * p, (g, p))
    out["colour"] = take(np.int8, m)
    out["point"] = take("<i2", m)
    checks = take("<u4", 2 * c, (c, 2)) if c else np.zeros((0, 2), np.uint32)
    out["check_at"] = checks.astype(np.int64)
    out["check_codes"] = take(np.uint8, c * p, (c, p)) if c else np.zeros((0, p), np.uint8)
    if at != len(data):
        sys.exit(f"{path}: {len(data) - at} bytes left over")
    return out


# ---------------------------------------------------------------- the replay


def shifted(x, fill):
    """The four neighbours of each point of [G, S, S]: up, down, left, right."""
    up = F.pad(x[:, :-1, :], (0, 0, 1, 0), value=fill)
    down = F.pad(x[:, 1:, :], (0, 0, 0, 1), value=fill)
    left = F.pad(x[:, :, :-1], (1, 0, 0, 0), value=fill)
    right = F.pad(x[:, :, 1:], (0, 1, 0, 0), value=fill)
    return (up, down, left, right)


def liberties(board, size):
    """The liberties of the chain at each point of boards [G, N] (0 empty)."""
    g = board.shape[0]
    b = board.view(g, size, size).to(torch.int32)
    idx = torch.arange(size * size, device=board.device, dtype=torch.int32).view(1, size, size)
    label = torch.where(b != 0, idx.expand(g, -1, -1), torch.full_like(b, BIG))
    colours = shifted(b, 0)
    while True:
        new = label
        for nb_label, nb_colour in zip(shifted(label, BIG), colours):
            same = (nb_colour == b) & (b != 0)
            new = torch.minimum(new, torch.where(same, nb_label, BIG))
        flat = new.view(g, -1)
        jumped = torch.gather(
            torch.cat([flat, torch.full((g, 1), BIG, device=board.device, dtype=torch.int32)], 1),
            1,
            flat.clamp(max=size * size).long(),
        )
        new = torch.minimum(flat, jumped).view(g, size, size)
        if torch.equal(new, label):
            break
        label = new
    # Each empty point counts once for each distinct chain beside it.
    empty = b == 0
    count = torch.zeros((g, size * size + 1), device=board.device, dtype=torch.int32)
    seen = []
    for nb in shifted(label, BIG):
        valid = empty & (nb < BIG)
        for s in seen:
            valid &= nb != s
        seen.append(nb)
        target = torch.where(valid, nb, size * size).view(g, -1).long()
        count.scatter_add_(1, target, valid.view(g, -1).to(torch.int32))
    libs = torch.gather(count, 1, label.view(g, -1).clamp(max=size * size).long())
    return torch.where(b.view(g, -1) != 0, libs, 0)


def codes_of(board, libs):
    """0 empty, 1-3 Black's stones with 1, 2, 3+ liberties, 4-6 White's."""
    l = libs.clamp(1, 3)
    return torch.where(board == 1, l, torch.where(board == -1, 3 + l, 0)).to(torch.uint8)


def replay(games, device):
    """Every position of every game: codes [P, N], and per position its
    game, turn, mover (1 Black, -1 White), last and previous move (-1)."""
    size, n = games["size"], games["points"]
    moves = games["moves"]
    g = len(moves)
    offsets = np.concatenate([[0], np.cumsum(moves + 1)])
    total = int(offsets[-1])
    first_move = np.concatenate([[0], np.cumsum(moves)])[:-1]
    tmax = int(moves.max()) if g else 0
    colour = np.zeros((g, tmax + 1), np.int8)
    point = np.full((g, tmax + 1), -1, np.int16)
    for k in range(g):
        m = int(moves[k])
        s = int(first_move[k])
        colour[k, :m] = games["colour"][s : s + m]
        point[k, :m] = games["point"][s : s + m]
    colour_t = torch.from_numpy(colour).to(device)
    point_t = torch.from_numpy(point.astype(np.int64)).to(device)
    moves_t = torch.from_numpy(moves).to(device)
    offsets_t = torch.from_numpy(offsets[:-1]).to(device)
    board = torch.from_numpy(games["initial"].copy()).to(device)
    codes = torch.zeros((total, n), dtype=torch.uint8, device=device)
    game_of = torch.zeros(total, dtype=torch.int32, device=device)
    turn_of = torch.zeros(total, dtype=torch.int32, device=device)
    mover = torch.zeros(total, dtype=torch.int8, device=device)
    last = torch.full((total,), -1, dtype=torch.int16, device=device)
    prev = torch.full((total,), -1, dtype=torch.int16, device=device)
    rows = torch.arange(g, device=device)
    libs = liberties(board, size)
    for t in range(tmax + 1):
        live = moves_t >= t
        at = offsets_t[live] + t
        codes[at] = codes_of(board[live], libs[live])
        game_of[at] = rows[live].to(torch.int32)
        turn_of[at] = t
        # The mover: this turn's colour, after the last turn the other's.
        c = colour_t[:, t]
        if t > 0:
            c = torch.where(moves_t > t, c, -colour_t[:, t - 1])
            last[at] = point_t[live, t - 1].to(torch.int16)
        if t > 1:
            prev[at] = point_t[live, t - 2].to(torch.int16)
        mover[at] = c[live].to(torch.int8)
        if t == tmax:
            break
        play = (moves_t > t) & (point_t[:, t] >= 0)
        if not bool(play.any()):
            continue
        col = colour_t[:, t].to(torch.int8)
        where = point_t[:, t].clamp(min=0)
        placed = board.clone()
        placed[rows, where] = torch.where(play, col, board[rows, where])
        board = placed
        libs = liberties(board, size)
        captured = (board == -col[:, None]) & (libs == 0) & play[:, None]
        if bool(captured.any()):
            board = torch.where(captured, torch.zeros_like(board), board)
            libs = liberties(board, size)
        suicide = (board == col[:, None]) & (libs == 0) & play[:, None]
        if bool(suicide.any()):
            board = torch.where(suicide, torch.zeros_like(board), board)
            libs = liberties(board, size)
    return dict(
        codes=codes,
        game=game_of.long(),
        turn=turn_of.long(),
        mover=mover,
        last=last.long(),
        prev=prev.long(),
        offsets=torch.from_numpy(offsets).to(device),
    )


def check_replay(games, pos):
    at = games["check_at"]
    if len(at) == 0:
        return
    offsets = pos["offsets"].cpu().numpy()
    idx = offsets[at[:, 0]] + at[:, 1]
    mine = pos["codes"][torch.from_numpy(idx).to(pos["codes"].device)].cpu().numpy()
    wrong = (mine != games["check_codes"]).any(1)
    if wrong.any():
        k = int(np.argmax(wrong))
        sys.exit(
            f"the replay differs from tengen's at {int(wrong.sum())} of {len(at)} positions, "
            f"first game {at[k, 0]} turn {at[k, 1]}"
        )
    log(f"replay checked: {len(at)} positions as tengen reads them")


# ---------------------------------------------------------------- the input


class Data:
    """The positions on the device and their games' targets."""

    def __init__(self, games, pos, device):
        self.size = games["size"]
        self.n = games["points"]
        self.pos = pos
        t = lambda a, dtype: torch.from_numpy(np.ascontiguousarray(a)).to(device=device, dtype=dtype)
        self.split = t(games["split"], torch.long)
        self.area = t(games["area"], torch.float32)
        self.winner = t(games["winner"], torch.float32)
        self.kind = t(games["kind"], torch.long)
        self.komi = t(games["komi"], torch.float32)
        self.margin = t(games["margin"], torch.float32)
        self.moves = t(games["moves"], torch.long)
        self.owner = t(games["owner"], torch.int8)
        g = pos["game"]
        turn = pos["turn"]
        n_moves = self.moves[g]
        # The final position of a game not counted is left out: its player
        # to move is the one who resigned, which the board does not show.
        usable = (turn < n_moves) | (self.kind[g] == 1)
        usable &= n_moves > 0
        second_half = (2 * turn >= n_moves).float()
        weight = (1.0 + second_half) * torch.where(self.kind[g] == 1, 2.0, 1.0)
        self.train_idx = torch.nonzero(usable & (self.split[g] == 0)).squeeze(1)
        self.test_idx = torch.nonzero(usable & (self.split[g] == 1)).squeeze(1)
        self.train_weight = weight[self.train_idx]

    def batch(self, idx, symmetry=0, passed=None):
        """Planes [B, 12, S, S], the mover's komi [B] and the targets."""
        pos, s, n = self.pos, self.size, self.n
        b = idx.shape[0]
        dev = idx.device
        g = pos["game"][idx]
        mover = pos["mover"][idx].float()
        codes = pos["codes"][idx].long()
        hot = F.one_hot(codes, 7).float()  # [B, N, 7]
        black = hot[:, :, 1:4]
        white = hot[:, :, 4:7]
        is_black = (mover > 0)[:, None, None]
        own = torch.where(is_black, black, white)
        opp = torch.where(is_black, white, black)
        last = pos["last"][idx]
        prev = pos["prev"][idx]

        def one_hot_point(p):
            out = torch.zeros((b, n + 1), device=dev)
            out.scatter_(1, torch.where(p >= 0, p, n)[:, None], 1.0)
            return out[:, :n]

        last_p, prev_p = one_hot_point(last), one_hot_point(prev)
        if passed is not None:
            m = passed[:, None, None]
            own, opp = torch.where(m, opp, own), torch.where(m, own, opp)
            mp = passed[:, None]
            prev_p = torch.where(mp, last_p, prev_p)
            last_p = torch.where(mp, torch.zeros_like(last_p), last_p)
            mover = torch.where(passed, -mover, mover)
        white_komi = self.komi[g]
        komi = torch.where(mover < 0, white_komi, -white_komi)
        ones = torch.ones((b, n), device=dev)
        planes = torch.stack(
            [
                own[:, :, 0],
                own[:, :, 1],
                own[:, :, 2],
                opp[:, :, 0],
                opp[:, :, 1],
                opp[:, :, 2],
                hot[:, :, 0],
                ones,
                last_p,
                prev_p,
                ones * (komi / KOMI_SCALE)[:, None],
                ones * self.area[g][:, None],
            ],
            1,
        ).view(b, PLANES, s, s)
        winner = self.winner[g]
        win = torch.where(winner == 0, 0.5, (winner == mover).float())
        kind = self.kind[g]
        owned = (kind > 0).float()
        owner = self.owner[g].float() / 127.0 * mover[:, None]
        margin = self.margin[g] * mover
        counted = (kind == 1).float()
        owner = owner.view(b, s, s)
        planes, owner = turn(planes, symmetry), turn(owner, symmetry)
        return planes, komi, dict(
            win=win, owned=owned, owner=owner.reshape(b, n), margin=margin, scored=owned, counted=counted
        )


def turn(x, k):
    """Symmetry k (0-7) of the last two dimensions: tengen_mcts::net::symmetric."""
    if k & 1:
        x = x.flip(-1)
    if k & 2:
        x = x.flip(-2)
    if k & 4:
        x = x.transpose(-1, -2)
    return x


# ---------------------------------------------------------------- the network


class ValueNet(nn.Module):
    """tengen_mcts::value::ValueNet, with batch normalisation to fold."""

    def __init__(self, channels, layers):
        super().__init__()
        c = channels
        self.first = nn.Conv2d(PLANES, c, 5, padding=2)
        self.first_bn = nn.BatchNorm2d(c)
        self.body = nn.ModuleList([nn.Conv2d(c, c, 3, padding=1) for _ in range(layers - 1)])
        self.body_bn = nn.ModuleList([nn.BatchNorm2d(c) for _ in range(layers - 1)])
        self.glob = nn.Linear(c, c)
        self.owner = nn.Conv2d(c, 1, 1)
        nn.init.zeros_(self.owner.weight)
        nn.init.zeros_(self.owner.bias)
        self.hidden = nn.Linear(2 * c, HEAD)
        self.out = nn.Linear(HEAD, 3)
        nn.init.zeros_(self.out.weight)
        nn.init.zeros_(self.out.bias)
        self.score_share = nn.Parameter(torch.ones(1))
        self.win_share = nn.Parameter(torch.full((1,), 1.7))

    def forward(self, planes, komi):
        h = F.relu(self.first_bn(self.first(planes)))
        for conv, bn in zip(self.body, self.body_bn):
            h = h + F.relu(bn(conv(h)))
        b, c = h.shape[0], h.shape[1]
        h = F.relu(h + self.glob(h.mean((2, 3))).view(b, c, 1, 1))
        h = h.float()
        ownership = torch.tanh(self.owner(h).flatten(1).float())
        pooled = torch.cat([h.mean((2, 3)), h.amax((2, 3))], 1)
        out = self.out(F.relu(self.hidden(pooled))).float()
        margin = ownership.detach().sum(1) * self.score_share + out[:, 1] * SCORE_SCALE
        log_spread = (out[:, 2] + math.log(SCORE_SCALE)).clamp(*LOG_SPREAD)
        lead = (margin + komi) / log_spread.detach().exp()
        win_logit = out[:, 0] + lead * self.win_share
        return dict(win_logit=win_logit, margin=margin, log_spread=log_spread, ownership=ownership)


def loss_of(heads, t):
    """tengen_train::value's loss."""
    z = heads["win_logit"]
    win = (F.softplus(z) - z * t["win"]).mean()
    owned = t["owned"].sum().clamp(min=1.0)
    scored = t["scored"].sum().clamp(min=1.0)
    owner = ((heads["ownership"] - t["owner"]) ** 2).mean(1)
    owner = (owner * t["owned"]).sum() / owned
    miss = heads["margin"] - t["margin"]
    margin = (miss**2 * t["scored"]).sum() / (scored * 2.0 * MARGIN_VARIANCE)
    ls = heads["log_spread"]
    spread = ((ls + miss.detach() ** 2 / (2.0 * (2.0 * ls).exp())) * t["scored"]).sum() / scored
    return win + owner * OWNER_WEIGHT + margin * MARGIN_WEIGHT + spread * SPREAD_WEIGHT


def folded(net):
    """The weights as tengen reads them: batch normalisation folded into
    the convolutions, linear weights [in, out]."""
    out = {}

    def fold(conv, bn, name):
        s = bn.weight / torch.sqrt(bn.running_var + bn.eps)
        out[f"{name}.weight"] = conv.weight * s[:, None, None, None]
        out[f"{name}.bias"] = (conv.bias - bn.running_mean) * s + bn.bias

    with torch.no_grad():
        fold(net.first, net.first_bn, "first")
        for i, (conv, bn) in enumerate(zip(net.body, net.body_bn)):
            fold(conv, bn, f"body.{i}")
        for name, lin in (("global", net.glob), ("hidden", net.hidden), ("out", net.out)):
            out[f"{name}.weight"] = lin.weight.t()
            out[f"{name}.bias"] = lin.bias
        out["owner.weight"] = net.owner.weight
        out["owner.bias"] = net.owner.bias
        out["score_share"] = net.score_share
        out["win_share"] = net.win_share
    return {k: v.detach().float().cpu().contiguous() for k, v in out.items()}


# ---------------------------------------------------------------- measures


@torch.no_grad()
def judge(net, data, idx, amp):
    """Black's win chance and margin at positions idx: the mean of the
    mover's view and the passed view, as tengen_mcts judges."""
    wins, margins, owners = [], [], []
    for part in idx.split(8192):
        both = []
        for passed in (False, True):
            flag = torch.full(part.shape, passed, device=part.device)
            planes, komi, t = data.batch(part, 0, flag)
            with amp():
                h = net(planes, komi)
            sign = torch.where(data.pos["mover"][part] > 0, 1.0, -1.0) * (-1.0 if passed else 1.0)
            black_win = torch.where(sign > 0, torch.sigmoid(h["win_logit"]), 1 - torch.sigmoid(h["win_logit"]))
            both.append((black_win, h["margin"] * sign, h["ownership"] * sign[:, None]))
        wins.append((both[0][0] + both[1][0]) / 2)
        margins.append((both[0][1] + both[1][1]) / 2)
        owners.append((both[0][2] + both[1][2]) / 2)
    return torch.cat(wins), torch.cat(margins), torch.cat(owners)


@torch.no_grad()
def measure(net, data, idx, amp):
    """The measures of tengen_train::value on positions idx (mover's view),
    and the share of decided positions whose winner is favoured by the
    two-view judgement."""
    net.eval()
    loss_sum, n = 0.0, 0
    favoured = decided = 0
    owner_sq = margin_abs = 0.0
    counted = 0
    for part in idx.split(8192):
        planes, komi, t = data.batch(part, 0)
        with amp():
            h = net(planes, komi)
        z = h["win_logit"].float()
        p = torch.sigmoid(z).clamp(1e-6, 1 - 1e-6)
        y = t["win"]
        loss_sum += float(-(y * p.log() + (1 - y) * (1 - p).log()).sum())
        n += part.shape[0]
        d = y != 0.5
        decided += int(d.sum())
        favoured += int(((p > 0.5) == (y > 0.5))[d].sum())
        c = t["counted"] > 0
        counted += int(c.sum())
        owner_sq += float(((h["ownership"] - t["owner"]) ** 2).mean(1)[c].sum())
        margin_abs += float((h["margin"] - t["margin"]).abs()[c].sum())
    net.train()
    return dict(
        win_loss=loss_sum / max(n, 1),
        favoured=favoured / max(decided, 1),
        owner_error=owner_sq / max(counted, 1),
        margin_error=margin_abs / max(counted, 1),
        positions=n,
        counted=counted,
    )


@torch.no_grad()
def stages(net, data, amp):
    """How often the winner of a test game is favoured at 1/4, 1/2, 3/4 of
    it and at its final position (tengen evaluate's summary)."""
    net.eval()
    test_games = torch.nonzero((data.split == 1) & (data.winner != 0) & (data.moves > 0)).squeeze(1)
    out = {}
    for name, q in (("1/4", 0.25), ("1/2", 0.5), ("3/4", 0.75), ("final", 1.0)):
        turn = (data.moves[test_games].float() * q).floor().long()
        idx = data.pos["offsets"][test_games] + turn
        black_win, _, _ = judge(net, data, idx, amp)
        right = (black_win > 0.5) == (data.winner[test_games] > 0)
        out[name] = float(right.float().mean())
    net.train()
    return out


# ---------------------------------------------------------------- the run


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", help="the file of `tengen train value --export`")
    ap.add_argument("--out", default="out", help="folder for the weights, probe and log")
    ap.add_argument("--minutes", type=float, default=5.0, help="time to train")
    ap.add_argument(
        "--shape", action="append", default=None, help="CHANNELSxLAYERS, repeat to train several at once (64x12)"
    )
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--measure-every", type=float, default=30.0, help="seconds")
    ap.add_argument("--limit-games", type=int, default=0, help="N games spread over the file only (a check)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    args.shape = args.shape or ["64x12"]
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
        amp = lambda: torch.autocast("cuda", dtype=torch.bfloat16)
    else:
        amp = contextlib.nullcontext
    start = time.time()
    games = read_games(args.games)
    if args.limit_games:
        # Spread over the file, which holds the training games first: a
        # check needs test games too.
        keep = np.unique(np.linspace(0, len(games["moves"]) - 1, args.limit_games).astype(np.int64))
        games = subset(games, keep)
    log(f"{len(games['moves'])} games, {int(games['moves'].sum())} moves, on {device}")
    pos = replay(games, device)
    log(f"replayed: {pos['codes'].shape[0]} positions in {time.time() - start:.1f} s")
    check_replay(games, pos)
    data = Data(games, pos, device)
    log(f"{data.train_idx.numel()} training positions, {data.test_idx.numel()} test positions")
    if data.train_idx.numel() == 0 or data.test_idx.numel() == 0:
        sys.exit("the file needs training and test games with positions")
    gen = torch.Generator(device=device).manual_seed(args.seed)
    sample = lambda idx, k: idx[torch.randperm(idx.numel(), generator=gen, device=device)[:k]]
    train_sample = sample(data.train_idx, 50_000)
    test_sample = data.test_idx

    shapes = [tuple(int(x) for x in shape.split("x")) for shape in args.shape]
    runs = []
    for channels, layers in shapes:
        net = ValueNet(channels, layers).to(device).to(memory_format=torch.channels_last)
        decay = [p for n, p in net.named_parameters() if p.ndim > 1]
        rest = [p for n, p in net.named_parameters() if p.ndim <= 1]
        opt = torch.optim.AdamW(
            [{"params": decay, "weight_decay": args.weight_decay}, {"params": rest, "weight_decay": 0.0}],
            lr=args.lr,
        )
        runs.append(dict(name=f"{channels}x{layers}", net=net, opt=opt, best=None, history=[]))
    budget = args.minutes * 60.0
    t0 = time.time()
    step = seen = 0
    next_measure = args.measure_every
    while True:
        elapsed = time.time() - t0
        if elapsed >= budget:
            break
        frac = elapsed / budget
        lr = args.lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * frac))) * min(1.0, (step + 1) / 200)
        pick = torch.multinomial(data.train_weight, args.batch, replacement=True, generator=gen)
        idx = data.train_idx[pick]
        passed = torch.rand(args.batch, device=device, generator=gen) < 0.5
        symmetry = int(torch.randint(0, 8, (1,), generator=gen, device=device))
        planes, komi, t = data.batch(idx, symmetry, passed)
        planes = planes.contiguous(memory_format=torch.channels_last)
        for run in runs:
            for group in run["opt"].param_groups:
                group["lr"] = lr
            with amp():
                heads = run["net"](planes, komi)
            loss = loss_of(heads, t)
            run["opt"].zero_grad(set_to_none=True)
            loss.backward()
            run["opt"].step()
        step += 1
        seen += args.batch
        if time.time() - t0 >= next_measure or time.time() - t0 >= budget:
            next_measure += args.measure_every
            for run in runs:
                net = run["net"]
                tr = measure(net, data, train_sample, amp)
                te = measure(net, data, test_sample, amp)
                st = stages(net, data, amp)
                rate = seen / (time.time() - t0)
                line = dict(step=step, seen=seen, seconds=round(time.time() - t0, 1), rate=round(rate), lr=lr, train=tr, test=te, stages=st)
                run["history"].append(line)
                log(
                    f"{run['name']} step {step} ({line['seconds']} s, {rate:.0f} positions/s, lr {lr:.2e}) "
                    f"train win loss {tr['win_loss']:.4f} fav {tr['favoured']:.3f} own {tr['owner_error']:.3f} "
                    f"margin {tr['margin_error']:.1f} | test {te['win_loss']:.4f} fav {te['favoured']:.3f} "
                    f"own {te['owner_error']:.3f} margin {te['margin_error']:.1f} | stages "
                    + " ".join(f"{k} {v:.3f}" for k, v in st.items())
                )
                if run["best"] is None or te["win_loss"] < run["best"][0]:
                    run["best"] = (te["win_loss"], step, {k: v.detach().clone() for k, v in net.state_dict().items()}, line)
                    # Written as it goes: a run cut short keeps its best.
                    write(net, data, args, run["name"], line, run["history"], device)
    for run in runs:
        best = run["best"]
        if best is None:
            sys.exit("no step was measured")
        run["net"].load_state_dict(best[2])
        log(f"{run['name']}: kept step {best[1]}, test win loss {best[0]:.4f}")
        write(run["net"], data, args, run["name"], best[3], run["history"], device)


def subset(games, keep):
    """The games `keep` of an export, checks of other games dropped."""
    out = dict(games)
    first_move = np.concatenate([[0], np.cumsum(games["moves"])])
    for k in ("split", "area", "winner", "kind", "komi", "margin", "moves", "initial", "owner"):
        out[k] = games[k][keep]
    spans = [np.arange(first_move[g], first_move[g + 1]) for g in keep]
    span = np.concatenate(spans) if spans else np.zeros(0, np.int64)
    out["colour"] = games["colour"][span]
    out["point"] = games["point"][span]
    renumber = {int(g): i for i, g in enumerate(keep)}
    ok = np.array([int(g) in renumber for g in games["check_at"][:, 0]], bool)
    at = games["check_at"][ok].copy()
    at[:, 0] = [renumber[int(g)] for g in at[:, 0]]
    out["check_at"] = at
    out["check_codes"] = games["check_codes"][ok]
    return out


def write(net, data, args, name, kept, history, device):
    from safetensors.torch import save_file

    weights = folded(net)
    save_file(weights, os.path.join(args.out, f"value-{name}.safetensors"), metadata={"format": "safetensors"})
    # The probe: test positions, and how the network judges them in full
    # precision (both views, from Black's side), for tengen to read back.
    channels, layers = (int(x) for x in name.split("x"))
    check = ValueNet(channels, layers).to(device)
    check.load_state_dict(net.state_dict())
    check.eval()
    idx = data.test_idx[torch.linspace(0, data.test_idx.numel() - 1, 12).long()]
    # In full precision: tengen computes in 32-bit floats.
    tf32 = (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = False
    black_win, black_margin, _ = judge(check, data, idx, contextlib.nullcontext)
    torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = tf32
    probe = []
    pos = data.pos
    s = data.size
    for i, p in enumerate(idx.tolist()):
        codes = pos["codes"][p].tolist()
        rows = ["".join(".XXXOOO"[c] for c in codes[r * s : (r + 1) * s]) for r in range(s)]
        g = int(pos["game"][p])
        komi = float(data.komi[g])
        probe.append(
            dict(
                rows=rows,
                mover="black" if int(pos["mover"][p]) > 0 else "white",
                last=int(pos["last"][p]),
                prev=int(pos["prev"][p]),
                komi=komi,
                area=bool(data.area[g] > 0),
                black_wins=float(black_win[i]),
                black_lead=float(black_margin[i]) - komi,
            )
        )
    with open(os.path.join(args.out, f"probe-{name}.json"), "w") as f:
        json.dump(probe, f, indent=1)
    with open(os.path.join(args.out, f"run-{name}.json"), "w") as f:
        json.dump(
            dict(args=vars(args), kept=kept, history=history, torch=torch.__version__, device=str(device)), f, indent=1
        )
    log("written", args.out)


if __name__ == "__main__":
    main()
