#include "textflag.h"

// Every other 32-bit word of two 16-word registers: 0, 2, …, 30.
DATA evenWords<>+0(SB)/4, $0
DATA evenWords<>+4(SB)/4, $2
DATA evenWords<>+8(SB)/4, $4
DATA evenWords<>+12(SB)/4, $6
DATA evenWords<>+16(SB)/4, $8
DATA evenWords<>+20(SB)/4, $10
DATA evenWords<>+24(SB)/4, $12
DATA evenWords<>+28(SB)/4, $14
DATA evenWords<>+32(SB)/4, $16
DATA evenWords<>+36(SB)/4, $18
DATA evenWords<>+40(SB)/4, $20
DATA evenWords<>+44(SB)/4, $22
DATA evenWords<>+48(SB)/4, $24
DATA evenWords<>+52(SB)/4, $26
DATA evenWords<>+56(SB)/4, $28
DATA evenWords<>+60(SB)/4, $30
GLOBL evenWords<>(SB), RODATA|NOPTR, $64

// func gatherEvenWordsAVX512(dst, src *uint32, n int)
// dst[i] = src[2*i] for i < n, n a multiple of 16.
TEXT ·gatherEvenWordsAVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	JZ done
	VMOVDQU32 evenWords<>(SB), Z2
loop:
	VMOVDQU32 0(SI), Z0
	VMOVDQA32 Z2, Z1
	VPERMI2D 64(SI), Z0, Z1
	VMOVDQU32 Z1, 0(DI)
	ADDQ $128, SI
	ADDQ $64, DI
	DECQ CX
	JNZ loop
done:
	VZEROUPPER
	RET
