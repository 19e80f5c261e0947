        .text
        movq %rax, %rbx
