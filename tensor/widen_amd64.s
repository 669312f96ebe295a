#include "textflag.h"

// func addWidenedAVX512(dst *float64, src *float32, n int)
// dst[i] += float64(src[i]) for i < n, n a multiple of 16.
TEXT ·addWidenedAVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	JZ done
loop:
	VCVTPS2PD 0(SI), Z0
	VCVTPS2PD 32(SI), Z1
	VADDPD 0(DI), Z0, Z0
	VADDPD 64(DI), Z1, Z1
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ CX
	JNZ loop
done:
	VZEROUPPER
	RET

// func addWidened4AVX512(dst *float64, s0, s1, s2, s3 *float32, n int)
// dst[i] += float64(s0[i]), then s1's, s2's and s3's, for i < n, n a
// multiple of 16: per slot the additions of four calls of
// addWidenedAVX512, in their order, with dst read and written once.
TEXT ·addWidened4AVX512(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ s0+8(FP), SI
	MOVQ s1+16(FP), R8
	MOVQ s2+24(FP), R9
	MOVQ s3+32(FP), R10
	MOVQ n+40(FP), CX
	SHRQ $4, CX
	JZ done4
loop4:
	VMOVUPD 0(DI), Z0
	VMOVUPD 64(DI), Z1
	VCVTPS2PD 0(SI), Z2
	VCVTPS2PD 32(SI), Z3
	VADDPD Z2, Z0, Z0
	VADDPD Z3, Z1, Z1
	VCVTPS2PD 0(R8), Z2
	VCVTPS2PD 32(R8), Z3
	VADDPD Z2, Z0, Z0
	VADDPD Z3, Z1, Z1
	VCVTPS2PD 0(R9), Z2
	VCVTPS2PD 32(R9), Z3
	VADDPD Z2, Z0, Z0
	VADDPD Z3, Z1, Z1
	VCVTPS2PD 0(R10), Z2
	VCVTPS2PD 32(R10), Z3
	VADDPD Z2, Z0, Z0
	VADDPD Z3, Z1, Z1
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	ADDQ $64, SI
	ADDQ $64, R8
	ADDQ $64, R9
	ADDQ $64, R10
	ADDQ $128, DI
	DECQ CX
	JNZ loop4
done4:
	VZEROUPPER
	RET
